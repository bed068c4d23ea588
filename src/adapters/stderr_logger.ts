/**
 * The real Logger: one line per message on stderr, never stdout.
 */
import type { Logger } from "../ports/logger.ts";

export function createStderrLogger(write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  return {
    info: (m) => write(`android-mcp-harness: ${m}\n`),
    warn: (m) => write(`android-mcp-harness: warning: ${m}\n`),
    error: (m) => write(`android-mcp-harness: error: ${m}\n`),
  };
}
