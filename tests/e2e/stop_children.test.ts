/**
 * Stopping the harness stops what it runs. The runner starts every child in its own process group (so a
 * timeout also ends what a wrapper script started), which puts the children beyond a terminal's Ctrl+C:
 * the compiled executable, stopped while `doctor` waits on a hanging `java -version`, must not leave that
 * java (or the `sleep` inside it) running — neither after Ctrl+C (SIGINT to the foreground process group)
 * nor after SIGTERM to the harness alone (how an MCP client or a supervisor stops it).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { programDir, writeProgram } from "../support/fake_programs.ts";
import { harnessCommand } from "../support/mcp_client.ts";
import { makeServeHome } from "../support/mcp_e2e.ts";

/** The live (not zombie) processes of a process group, read from /proc. */
function liveInGroup(pgid: number): number[] {
  const live: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // state ppid pgrp …
      if (fields[0] !== "Z" && Number(fields[2]) === pgid) live.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return live;
}

async function until(condition: () => boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

/** `doctor` waiting on a java that hangs (the script's pid, its group's leader, written to a file). */
async function doctorWaitingOnJava(t: TestContext): Promise<{ harness: ChildProcess; javaGroup: number; closed: Promise<unknown> }> {
  const home = makeServeHome();
  t.after(() => home.remove());
  const bin = programDir(t);
  const pidFile = join(bin, "java.pid");
  writeProgram(bin, "java", `echo $$ > '${pidFile}'\nsleep 60\necho never`);
  const [command, ...prefix] = harnessCommand();
  // Its own process group, as a shell runs a foreground job: a group signal reaches the harness only.
  const harness = spawn(command, [...prefix, "doctor", "--timeout", "30"], {
    // With an Appium URL doctor runs java (the direct backend needs none: "not needed (direct)"); nothing listens there.
    env: { ...home.env, PATH: `${bin}:${home.env["PATH"]}`, JAVA_HOME: "", APPIUM_URL: "http://127.0.0.1:9" },
    cwd: home.root,
    stdio: "ignore",
    detached: true,
  });
  const closed = new Promise((resolve) => harness.on("close", resolve));
  t.after(() => {
    for (const pid of existsSync(pidFile) ? [-Number(readFileSync(pidFile, "utf8"))] : []) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    try {
      process.kill(harness.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  });
  assert.ok(await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", 15_000), "the fake java never started");
  const javaGroup = Number(readFileSync(pidFile, "utf8"));
  assert.notDeepEqual(liveInGroup(javaGroup), [], "the fake java is not running");
  return { harness, javaGroup, closed };
}

for (
  const [how, stop] of [
    ["Ctrl+C (SIGINT to the harness's process group)", (harness: ChildProcess) => process.kill(-harness.pid!, "SIGINT")],
    ["SIGTERM to the harness alone", (harness: ChildProcess) => process.kill(harness.pid!, "SIGTERM")],
  ] as const
) {
  test(`${how} during doctor stops the hanging java it runs, and the harness`, {
    skip: process.platform === "win32" ? "POSIX process groups" : false,
  }, async (t) => {
    const { harness, javaGroup, closed } = await doctorWaitingOnJava(t);
    stop(harness);
    const ended = await Promise.race([closed.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
    assert.equal(ended, true, "the harness did not stop within 5 s");
    assert.ok(
      await until(() => liveInGroup(javaGroup).length === 0, 2000),
      `the hanging java outlived the harness: processes ${liveInGroup(javaGroup).join(", ")} of its group still run`,
    );
  });
}
