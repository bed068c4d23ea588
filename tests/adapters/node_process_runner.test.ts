/**
 * The real ProcessRunner on tiny scripts: output and exit codes as data, a missing program as
 * spawnError, and a timeout that ends a wrapper script AND the child it started (a shell running
 * `sleep`), answering promptly even though that child held the output pipes.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { assertEndedByDeadline, holdsWithin, LOADED_WAIT_MS } from "../support/time_bounds.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { printing, programDir, writeProgram } from "../support/fake_programs.ts";

const runner = createNodeProcessRunner();

test("a finished program: stdout bytes, stderr text and the exit code, never a throw", async (t) => {
  const dir = programDir(t);
  const program = writeProgram(dir, "tool", printing({ stdout: "out\n", stderr: "err\n", code: 3 }));
  const result = await runner.run(program, [], { timeoutMs: 5000 });
  assert.equal(result.stdout.toString(), "out\n");
  assert.equal(result.stderr, "err\n");
  assert.equal(result.exitCode, 3);
  assert.equal(result.timedOut, false);
  assert.equal(result.spawnError, undefined);
});

test("a missing program is spawnError ENOENT", async () => {
  const result = await runner.run("/nonexistent/amh-no-such-program", [], { timeoutMs: 5000 });
  assert.equal(result.spawnError, "ENOENT");
  assert.equal(result.exitCode, null);
});

test("all of a large output arrives (no early stop on a normal exit)", async (t) => {
  const dir = programDir(t);
  const program = writeProgram(dir, "big", "head -c 3000000 /dev/zero");
  const result = await runner.run(program, [], { timeoutMs: 10_000 });
  assert.equal(result.stdout.length, 3_000_000);
  assert.equal(result.exitCode, 0);
});

test("a timeout kills the script and the child it started, and answers at once", async (t) => {
  const dir = programDir(t);
  const pidFile = join(dir, "child.pid");
  const program = writeProgram(dir, "hang", `sleep 60 &\necho $! > '${pidFile}'\nwait`);
  const started = Date.now();
  const result = await runner.run(program, [], { timeoutMs: 300 });
  const took = Date.now() - started;
  assert.equal(result.timedOut, true);
  assertEndedByDeadline(took, 300, "the timed-out script");
  const childPid = Number(readFileSync(pidFile, "utf8"));
  // The group is killed after the answer (SIGTERM, SIGKILL after a grace): wait for the child to be gone.
  assert.ok(await holdsWithin(() => !isRunning(childPid), LOADED_WAIT_MS), `the script's child ${childPid} is still running`);
});

/** Whether a process lives: gone, or a zombie nobody reaped yet (some container inits never reap), is not running. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc: the signal check above is all there is
  }
}

test("an abort ends a script whose child holds stdout (not exec'd), promptly", async (t) => {
  const dir = programDir(t);
  const program = writeProgram(dir, "hold", "sleep 60\necho never");
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const started = Date.now();
  const result = await runner.run(program, [], { timeoutMs: 30_000, signal: controller.signal });
  assert.equal(result.aborted, true);
  assertEndedByDeadline(Date.now() - started, 200, "the aborted script (its own limit is 30 s)");
});
