/**
 * The adb adapter: runs one command of the closed list (adb_commands.ts) through the injected
 * ProcessRunner with an argument array, a timeout and an AbortSignal; `ADB_SERVER_SOCKET` is passed
 * to the child. Every `shell` command carries the end marker (stream_end.ts), so an output cut off by a
 * device that dropped is EMULATOR_UNAVAILABLE, never a half answer. Results are data (`{argv, exitCode,
 * stdout, stderr, durationMs, timedOut}`); it throws HarnessError only for adb missing, timeouts, device-level
 * adb errors (adb_failure.ts) and a cut stream.
 */
import type { ProcessResult, ProcessRunner } from "../../ports/process_runner.ts";
import { checkSerial } from "./adb_arguments.ts";
import type { AdbCommand } from "./adb_commands.ts";
import { adbFailure } from "./adb_failure.ts";
import type { AdbProgram } from "./adb_program.ts";
import { adbServerAddress } from "./adb_server_address.ts";
import { thisMachineHosts } from "./local_hosts.ts";
import { checkStreamEnd, END_MARKER_ARGS } from "./stream_end.ts";

export interface AdbRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Required for device commands. */
  serial?: string;
  /** Largest stdout kept for this command, instead of the client's (a screen recording's file). */
  maxOutputBytes?: number;
}

export interface AdbClient {
  readonly program: AdbProgram;
  /** The adb server this client talks to, canonical (adb_server_address.ts): with the serial, it names a device. */
  readonly serverAddress: string;
  run(command: AdbCommand, options: AdbRunOptions): Promise<ProcessResult>;
  /** Runs and decodes stdout as UTF-8 (legacy shells merge stderr into it). */
  text(command: AdbCommand, options: AdbRunOptions): Promise<string>;
}

export interface AdbClientOptions {
  runner: ProcessRunner;
  program: AdbProgram;
  /** A remote adb server (`tcp:host:port`), passed to the child as ADB_SERVER_SOCKET. */
  serverSocket?: string;
  /** Largest stdout kept per command (a PNG or a big dump); default 64 MiB. */
  maxOutputBytes?: number;
  /** Other names of this machine for the canonical server address; default: its host name and interface addresses. */
  localHosts?: readonly string[];
}

export function createAdbClient(options: AdbClientOptions): AdbClient {
  const env = options.serverSocket === undefined ? undefined : { ADB_SERVER_SOCKET: options.serverSocket };
  const run = async (command: AdbCommand, runOptions: AdbRunOptions): Promise<ProcessResult> => {
    const marked = command.device && command.args[0] === "shell";
    const commandArgs = marked ? [...command.args, ...END_MARKER_ARGS] : command.args;
    const args = command.device ? ["-s", checkSerial(runOptions.serial ?? ""), ...commandArgs] : [...commandArgs];
    const result = await options.runner.run(options.program.program, args, {
      timeoutMs: runOptions.timeoutMs,
      ...(runOptions.signal === undefined ? {} : { signal: runOptions.signal }),
      ...(env === undefined ? {} : { env }),
      ...((runOptions.maxOutputBytes ?? options.maxOutputBytes) === undefined
        ? {}
        : { maxOutputBytes: runOptions.maxOutputBytes ?? options.maxOutputBytes! }),
    });
    const failure = adbFailure(result, command.name, options.program, runOptions.timeoutMs);
    if (failure !== null) throw failure;
    return marked ? checkStreamEnd(result, command.args.join(" ")) : result;
  };
  return {
    program: options.program,
    serverAddress: adbServerAddress(options.serverSocket, options.localHosts ?? thisMachineHosts()),
    run,
    text: async (command, runOptions) => (await run(command, runOptions)).stdout.toString("utf8"),
  };
}
