/**
 * Issue 25's defects of leaking and lingering, tried again on every run (reliability R41–R45), beside the
 * hardening section's: an artifacts directory another user owns (as root) or anyone can write refused at start
 * (R41), credentials in the Appium URL said nowhere (R42), an old draft of ours swept at start (R43), a 1.5 GB path argument refused from
 * its size (R44).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DRAFT_MAX_AGE_MS } from "../../src/adapters/evidence/draft_sweep.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { spawnServe } from "../../tests/support/mcp_client.ts";
import { chmodSync, chownSync, existsSync, mkdirSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeServeHome } from "../../tests/support/mcp_e2e.ts";
import { runCli } from "../../tests/support/run_cli.ts";
import type { Tally } from "./tally.ts";

/** The longest a child may take to start, answer or exit on a loaded two-core machine before it counts as hung. */
const WAIT_MS = 60_000;

export async function runLeaks(tally: Tally, done: string[]): Promise<void> {
  await foreignArtifacts(tally, done);
  await credentialedAppiumUrl(tally, done);
  await oldDrafts(tally, done);
  await hugeArguments(tally, done);
}

/** R44: a 1.5 GB (sparse) file as `tree --file`, `flow` or `serve --screen` is refused from its size with the refusal's exit code. */
async function hugeArguments(tally: Tally, done: string[]): Promise<void> {
  if (process.platform === "win32") return void done.push("huge path arguments: skipped (no sparse files here)");
  const home = makeServeHome();
  try {
    const huge = join(home.root, "huge");
    writeFileSync(huge, "");
    truncateSync(huge, 1.5 * 1024 ** 3);
    const cases = [[["tree", "--file", huge], 2], [["flow", huge, "--device", "sim"], 1], [
      ["serve", "--device", "sim", "--screen", huge],
      2,
    ]];
    for (const [args, code] of cases as [string[], number][]) {
      tally.inputsTried++;
      const ran = await runCli(args, home.env, { limitMs: WAIT_MS });
      if (ran.hung) tally.violation("hangs", `leaks: ${args[0]} on a 1.5 GB file still ran after ${WAIT_MS / 1000} s`);
      else if (ran.code !== code || !/is at most \d+ MiB/.test(ran.stderr)) {
        tally.violation("file rules broken", `leaks: ${args.join(" ")} on a 1.5 GB file exited ${ran.code}: ${ran.stderr.slice(0, 200)}`);
      }
    }
    done.push("1.5 GB path arguments refused from their size");
  } finally {
    home.remove();
  }
}

/** R42: `http://user:key@host:port` with nothing listening: APPIUM_UNAVAILABLE, doctor://report and stderr name no credentials. */
async function credentialedAppiumUrl(tally: Tally, done: string[]): Promise<void> {
  const key = "k3y-5ecr3t-campaign";
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const sim = await startSimDevice({ scenario: "settings" });
  const home = makeServeHome();
  try {
    const env = { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket, APPIUM_URL: `http://cloud-user:${key}@127.0.0.1:${port}` };
    const served = await spawnServe([], env);
    try {
      tally.inputsTried++;
      tally.callsMade++;
      const opened = await served.client.callTool({ name: "ui_session_open", arguments: {} }, undefined, { timeout: WAIT_MS });
      const code = (opened.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (code !== "APPIUM_UNAVAILABLE") tally.violation("wrong fault outcome", `leaks: a closed credentialed Appium URL answered ${code}`);
      const report = await served.client.readResource({ uri: "doctor://report" });
      for (const [where, text] of [["the answer", JSON.stringify(opened)], ["doctor://report", JSON.stringify(report)]]) {
        if (text!.includes(key)) tally.violation("secrets leaked", `leaks: the Appium URL's key is in ${where}`);
      }
    } finally {
      await served.close();
    }
    if (served.stderr().includes(key)) tally.violation("secrets leaked", "leaks: the Appium URL's key is on serve's stderr");
    done.push("an Appium URL's credentials said nowhere");
  } finally {
    await sim.stop();
    home.remove();
  }
}

/** R41: `serve --artifacts` of a 0777 directory, and as root of another uid's, exits 1 with the reason before serving. */
async function foreignArtifacts(tally: Tally, done: string[]): Promise<void> {
  if (process.platform === "win32") return void done.push("foreign artifacts directory: skipped (no uids here)");
  const home = makeServeHome();
  try {
    const open = join(home.root, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const cases: [string, RegExp][] = [[open, /other users can write/]];
    if (process.getuid?.() === 0) {
      const hers = join(home.root, "hers");
      mkdirSync(hers);
      chownSync(hers, 54_331, 54_331);
      cases.push([hers, /belongs to user 54331/]);
    }
    for (const [dir, says] of cases) {
      tally.inputsTried++;
      const ran = await runCli(["serve", "--device", "sim", "--artifacts", dir], home.env, { limitMs: WAIT_MS });
      if (ran.hung) tally.violation("hangs", `leaks: serve with a foreign artifacts directory still ran after ${WAIT_MS / 1000} s`);
      else if (ran.code !== 1 || !says.test(ran.stderr)) {
        tally.violation("file rules broken", `leaks: serve --artifacts ${dir} exited ${ran.code}: ${ran.stderr.slice(0, 200)}`);
      }
    }
    done.push(
      `artifacts directories others can write refused (${
        cases.length === 1 ? "0777; another uid's skipped: needs root" : "0777, another uid's"
      })`,
    );
  } finally {
    home.remove();
  }
}

/** R43: a draft of ours older than DRAFT_MAX_AGE_MS in the artifacts directory is gone once `serve` has started; a young one stays. */
async function oldDrafts(tally: Tally, done: string[]): Promise<void> {
  const home = makeServeHome();
  try {
    mkdirSync(home.artifacts, { mode: 0o700 });
    const old = join(home.artifacts, ".20260101-000000-000000-ui_tap.png.4242-1.draft");
    const young = join(home.artifacts, ".20260101-000000-000000-ui_tap.png.4242-2.draft");
    writeFileSync(old, "half a png");
    writeFileSync(young, "half a png");
    const then = (Date.now() - DRAFT_MAX_AGE_MS - 60_000) / 1000;
    utimesSync(old, then, then);
    tally.inputsTried++;
    const served = await spawnServe(["--device", "sim"], home.env);
    await served.close();
    if (existsSync(old)) tally.violation("lost evidence", "leaks: an old draft in the artifacts directory was not swept at start");
    if (!existsSync(young)) tally.violation("file rules broken", "leaks: a young draft (a live writer's) was swept");
    done.push("old drafts swept at start");
  } finally {
    home.remove();
  }
}
