#!/usr/bin/env node
/**
 * Entry point: the only module that reads `process.*` (arguments, environment, standard streams,
 * signals). Real adapters come from the composition module (src/composition.ts). It runs the CLI when
 * loaded, so nothing imports it (tests call `runCli` with their own context); every other module only defines things.
 */
import process from "node:process";
import type { CliContext } from "./cli/context.ts";
import { runCli } from "./cli/program.ts";
import { realProcessAdapters } from "./composition.ts";

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
  let stop: Promise<string> | undefined;
  const waitForStop = () =>
    stop ??= Promise.race([
      stdoutClosed,
      new Promise<string>((resolve) => {
        for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve(signal));
      }),
    ]);
  const ctx: CliContext = {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdio: { stdin: process.stdin, stdout: process.stdout },
    ...realProcessAdapters(),
    waitForStop,
  };
  return runCli(args, ctx);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Normally the event loop drains and the process ends here. A pooled keep-alive connection (webdriverio
    // under Deno keeps one to Appium) must not keep a stopped server alive: end it a moment later regardless.
    setTimeout(() => process.exit(code), 1500).unref();
  },
  (error: unknown) => {
    process.stderr.write(`android-mcp-harness: internal error: ${(error as Error)?.message ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
