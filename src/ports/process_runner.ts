/**
 * Port: run a program with an argument array (never a shell). The result is plain data with the same
 * shape on success and failure; a non-zero exit never throws. Only a missing program or a refused
 * spawn is reported through `spawnError` (e.g. "ENOENT").
 */
export interface ProcessResult {
  argv: string[];
  exitCode: number | null;
  stdout: Buffer;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: string;
}

export interface RunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  env?: Record<string, string | undefined>;
  /** Bytes written to the child's stdin, then closed. Default: stdin closed at once. */
  input?: Uint8Array;
  /** Largest stdout kept, in bytes; beyond it the child is killed and `truncated` reported via exitCode null. */
  maxOutputBytes?: number;
}

export interface ProcessRunner {
  run(program: string, args: readonly string[], options: RunOptions): Promise<ProcessResult>;
}
