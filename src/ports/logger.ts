/**
 * Port: diagnostics. In `serve`, stdout belongs to the protocol, so the real logger writes to stderr.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
