#!/usr/bin/env node
/**
 * Entry point: the only module that reads `process.*` (arguments, environment, standard streams,
 * signals). Real adapters come from the composition module (src/composition.ts). It runs the CLI when
 * loaded, so nothing imports it (tests call `runCli` with their own context); every other module only defines things.
 * `--version` alone is answered before the CLI and the adapters load (they are dynamic imports: a command then
 * loads what it uses, and the single executable's build makes them static).
 */
import process from "node:process";
import type { CliContext } from "./cli/context.ts";
import type { NodeProcessRunner } from "./adapters/node_process_runner.ts";
import { versionLine } from "./version.ts";

/** The signals that stop a command that waits for the stop (serve, sim, flow), each with the same cleanup. */
const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export async function main(args: readonly string[]): Promise<number> {
  // A reader that goes away (`sim --json | head -1`, an MCP client that quits) closes stdout: that is a
  // request to stop, not a crash with a stack trace.
  const stdoutClosed = new Promise<string>((resolve) => {
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") resolve("stdout closed");
      else process.stderr.write(`android-mcp-harness: cannot write to stdout: ${error.message}\n`);
    });
  });
  process.stderr.on("error", () => {}); // nowhere left to report it
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    process.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  const { runCli } = await import("./cli/program.ts");
  const { realProcessAdapters } = await import("./composition.ts");
  const adapters = realProcessAdapters();
  endChildrenWithTheHarness(adapters.runner, () => stop !== undefined);
  let stop: Promise<string> | undefined;
  const waitForStop = () =>
    stop ??= Promise.race([
      stdoutClosed,
      new Promise<string>((resolve) => {
        // SIGHUP: the terminal closed (how many users stop a server); it cleans up like SIGTERM.
        for (const signal of STOP_SIGNALS) process.once(signal, () => resolve(signal));
      }),
    ]);
  const ctx: CliContext = {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdio: { stdin: process.stdin, stdout: process.stdout },
    ...adapters,
    waitForStop,
  };
  return runCli(args, ctx);
}

/**
 * The runner starts each child in its own process group, out of reach of a signal to ours (a terminal's
 * Ctrl+C): when the harness is stopped or exits, its running children (a hanging `java -version`, an
 * `adb shell`) are killed with it. A command that waits for the stop (`serve`, `sim`) then shuts down as
 * it does (a second signal kills it); any other command dies of the signal as it would without this handler.
 */
function endChildrenWithTheHarness(runner: NodeProcessRunner, waitsForStop: () => boolean): void {
  process.on("exit", () => runner.killAll());
  if (process.platform === "win32") return; // no process groups there: the children get the console's Ctrl+C themselves
  let stopping = false;
  for (const signal of STOP_SIGNALS) {
    const onSignal = () => {
      runner.killAll();
      if (waitsForStop() && !stopping) {
        stopping = true; // a second signal while it shuts down is the default again: die of it
        return;
      }
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal); // the default: die of it
    };
    process.on(signal, onSignal);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Normally the event loop drains and the process ends here. A pooled keep-alive connection (fetch
    // under Deno keeps one to Appium) must not keep a stopped server alive: end it a moment later regardless.
    setTimeout(() => process.exit(code), 1500).unref();
  },
  (error: unknown) => {
    process.stderr.write(`android-mcp-harness: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
