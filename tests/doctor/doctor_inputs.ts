/**
 * DoctorInputs for tests: the real adapters (process runner, fetch, TCP probe, file probe, clock) over an
 * environment the test writes — a temporary PATH of fake executables, JAVA_HOME, ANDROID_HOME … — parsed
 * by the real loadConfig, with a private working directory and home. `runCheck` runs one check through
 * the real runDoctor, so its timeout and backstop are the ones users get.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/mod.ts";
import { createFetchHttpClient } from "../../src/adapters/fetch_http_client.ts";
import { createNodeFileProbe } from "../../src/adapters/node_file_probe.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { createTcpSocketProbe } from "../../src/adapters/tcp_socket_probe.ts";
import { type ConfigFlags, loadConfig } from "../../src/config.ts";
import { type CheckResult, type DoctorCheck, type DoctorInputs, runDoctor } from "../../src/doctor/mod.ts";

export type Env = Record<string, string | undefined>;

/** A fresh directory removed after the test. */
export function scratch(t: TestContext, prefix = "amh-doctor-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * The inputs a check gets; the backend is Appium's (what most checks' tests are about) unless `direct` asks for
 * the default a user without an Appium URL gets.
 */
export function doctorInputs(
  t: TestContext,
  env: Env,
  overrides: Partial<DoctorInputs> & { flags?: ConfigFlags; direct?: true } = {},
): DoctorInputs {
  const { flags, direct, ...rest } = overrides;
  const home = scratch(t, "amh-doctor-home-");
  const runner = createNodeProcessRunner();
  return {
    config: { ...loadConfig(env, flags ?? {}), backend: direct === true ? "direct" : "appium" },
    env,
    platform: "linux",
    cwd: home,
    homeDir: home,
    runtime: { kind: "node", version: "20.20.2", executable: "/usr/bin/node" },
    runner,
    http: createFetchHttpClient(),
    socket: createTcpSocketProbe(),
    files: createNodeFileProbe(),
    clock: createSystemClock(),
    openAdb: (program, serverSocket) => createAdbClient({ runner, program, serverSocket }),
    ...rest,
  };
}

/** One check through runDoctor (its timeout, backstop and crash handling); with the time it took. */
export async function runCheck(check: DoctorCheck, inputs: DoctorInputs, timeoutMs = 5000): Promise<CheckResult & { tookMs: number }> {
  const started = Date.now();
  const report = await runDoctor([check], inputs, { timeoutMs });
  return { ...report.checks[0]!, tookMs: Date.now() - started };
}
