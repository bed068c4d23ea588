/**
 * Bench section "act tasks": three tasks end to end through the compiled `serve` over real stdio (the SDK
 * client), against the simulated device with the device latency profile run in this process (so its log counts
 * the UiAutomator2 requests; adb processes are counted by a wrapper named in ADB). Per task: calls, wall time,
 * adb processes, UiAutomator2 requests, o200k tokens of the text blocks, each beside issue 17's target; then one
 * ui_tap against one ui_get_tree with the same profile. The tasks run in an open UI session (its 20 s start is
 * the profile's, not a task's). Prints; never fails on a number.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-types="../../node_modules/gpt-tokenizer/esm/encoding/o200k_base.d.ts"
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { startSimDevice } from "../../src/sim/mod.ts";
import { type SpawnedServer, spawnServe } from "../../tests/support/mcp_client.ts";
import { makeServeHome } from "../../tests/support/mcp_e2e.ts";
import { type BenchIO, type BenchSection, median } from "./section.ts";

type Step = [tool: string, args: Record<string, unknown>];

/** The tasks of issue 17's token table, as an agent does them on the settings scenario, with their targets. */
export const TASKS: { name: string; steps: Step[]; tokenTarget: number }[] = [
  {
    name: "T1 Airplane mode on",
    tokenTarget: 885,
    steps: [
      ["settings_open", {}],
      ["ui_tap", { selector: { text: "Network & internet" } }],
      ["ui_tap", { selector: { text: "Airplane mode" } }],
    ],
  },
  {
    name: "T2 app info of Chrome",
    tokenTarget: 1132,
    steps: [
      ["settings_open", {}],
      ["ui_tap", { selector: { text: "Apps" } }],
      ["ui_tap", { selector: { text: "Chrome" } }],
    ],
  },
  {
    name: "T3 Display and back",
    tokenTarget: 895,
    steps: [
      ["settings_open", {}],
      ["ui_tap", { selector: { text: "Display" } }],
      ["device_back", {}],
    ],
  },
];

interface Counted {
  wallMs: number;
  adb: number;
  uia2: number;
  pageSources: number;
  tokens: number;
}

export const actTasksSection: BenchSection = {
  name: "act tasks: three tasks end to end through serve, simulated device with the device latency profile",
  async run(io: BenchIO) {
    const runs = Math.max(3, Math.min(io.repetitions, 5));
    const sim = await startSimDevice({ scenario: "settings", latency: "device" });
    const home = makeServeHome();
    const adbLog = join(mkdtempSync(join(tmpdir(), "amh-bench-adb-")), "adb.log");
    const wrapper = countingAdb(adbLog);
    let server: SpawnedServer | undefined;
    try {
      server = await spawnServe([], {
        ...home.env,
        ADB: wrapper,
        AMH_BENCH_ADB_LOG: adbLog,
        ADB_SERVER_SOCKET: sim.adbServerSocket,
        ANDROID_UDID: sim.device.serial,
        APPIUM_URL: sim.appiumUrl,
      });
      const s = server;
      const adbCount = () => readFileSync(adbLog, "utf8").split("\n").filter((l) => l !== "").length;
      const call = async (tool: string, args: Record<string, unknown>): Promise<Counted & { ok: boolean }> => {
        const adbFrom = adbCount();
        const logFrom = sim.device.log.length;
        const started = performance.now();
        const result = await s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 });
        const wallMs = performance.now() - started;
        const uia2 = sim.device.log.slice(logFrom).filter((e) => e.source === "uia2");
        const text = (result.content as { type: string; text?: string }[]).filter((c) => c.type === "text").map((c) => c.text ?? "").join(
          "",
        );
        if (process.env["AMH_BENCH_VERBOSE"] === "1") {
          const lines = readFileSync(adbLog, "utf8").split("\n").filter((l) => l !== "").slice(adbFrom).map((l) =>
            l.replace(/^-s \S+ /, "").slice(0, 24)
          );
          process.stderr.write(
            `${tool} ${wallMs.toFixed(0)} ms adb ${lines.join(" | ")} uia2 ${uia2.map((e) => e.command.slice(0, 30)).join(" | ")}\n`,
          );
        }
        if (result.isError === true && process.env["AMH_BENCH_VERBOSE"] === "1") {
          process.stderr.write(
            `${tool} ${JSON.stringify(args)}: ${JSON.stringify((result.structuredContent as { error: unknown }).error)}\n`,
          );
        }
        return {
          ok: result.isError !== true,
          wallMs,
          adb: adbCount() - adbFrom,
          uia2: uia2.length,
          pageSources: uia2.filter((e) => e.command.startsWith("get page source")).length,
          tokens: countTokens(text),
        };
      };
      io.print(
        `serve over stdio (node), ${runs} runs per task, in an open UI session; wall median (ms); counts and tokens of the last run`,
      );
      const opened = await s.client.callTool({ name: "ui_session_open", arguments: {} }, undefined, { timeout: 120_000 });
      const session = (opened.structuredContent as { data: { session_id: string } }).data.session_id;
      io.print("task                      calls  wall ms  adb procs  UiA2 req  page sources  o200k tokens (target)");
      const acts: Counted[] = [];
      for (const task of TASKS) {
        const walls: number[] = [];
        let last: Counted[] = [];
        for (let r = 0; r < runs; r++) {
          await fromLauncher(call, session);
          last = [];
          for (const [tool, args] of task.steps) {
            const counted = await call(tool, { ...args, session_id: session });
            if (!counted.ok) throw new Error(`${task.name}: ${tool} failed`);
            last.push(counted);
          }
          walls.push(last.reduce((sum, c) => sum + c.wallMs, 0));
        }
        acts.push(...last);
        const sum = (key: keyof Counted) => last.reduce((total, c) => total + c[key], 0);
        const tokens = sum("tokens");
        io.print(
          `${task.name.padEnd(26)}${String(task.steps.length).padEnd(7)}${median(walls).toFixed(0).padEnd(9)}${
            String(sum("adb")).padEnd(11)
          }` +
            `${String(sum("uia2")).padEnd(10)}${String(sum("pageSources")).padEnd(14)}${tokens} (≤ ${task.tokenTarget}) ${
              tokens <= task.tokenTarget ? "met" : "NOT met"
            }`,
        );
      }
      const perAct = (acts.reduce((t, c) => t + c.adb, 0) / acts.length).toFixed(1);
      io.print(`adb processes per act over the tasks: ${perAct} (target ≤ 2)`);

      // One ui_tap against one ui_get_tree, same profile: the tap from the Settings home, back untimed.
      const taps: Counted[] = [];
      const held: number[] = [];
      const bare: number[] = [];
      await call("settings_open", { session_id: session });
      for (let r = 0; r < runs; r++) {
        taps.push(await call("ui_tap", { selector: { text: "Network & internet" }, session_id: session }));
        await call("device_back", { session_id: session });
        held.push((await call("ui_get_tree", {})).wallMs);
      }
      await s.client.callTool({ name: "ui_session_close", arguments: { session_id: session } });
      for (let r = 0; r < runs; r++) bare.push((await call("ui_get_tree", {})).wallMs);
      const tap = median(taps.map((t) => t.wallMs));
      io.print(
        `page-source reads per successful ui_tap (settled screen): ${
          median(taps.map((t) => t.pageSources))
        } (target ≤ 2; before and after: the read after the act is final when UiAutomator2 answered it idle)`,
      );
      io.print(`adb processes per ui_tap: ${median(taps.map((t) => t.adb))} (target ≤ 2)`);
      io.print(
        `one ui_tap ${tap.toFixed(0)} ms · one ui_get_tree ${median(bare).toFixed(0)} ms through adb (uiautomator dump), ${
          median(held).toFixed(0)
        } ms through the held session`,
      );
      io.print(
        `ui_tap / ui_get_tree: ${(tap / median(bare)).toFixed(2)} against the adb dump, ${
          (tap / median(held)).toFixed(2)
        } against the held session's page source (target ≤ 1.5)`,
      );
    } finally {
      await server?.close();
      await sim.stop();
      home.remove();
      rmSync(join(adbLog, ".."), { recursive: true, force: true });
    }
  },
};

/** Back to the Settings home (untimed), then the launcher in front: every run starts where the first did. */
async function fromLauncher(
  call: (tool: string, args: Record<string, unknown>) => Promise<{ ok: boolean }>,
  session: string,
): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await call("settings_open", { session_id: session });
    if ((await call("ui_tap", { selector: { text: "Network & internet" }, session_id: session })).ok) {
      await call("device_back", { session_id: session });
      break;
    }
    await call("device_back", { session_id: session });
  }
  await call("app_launch", { package: "com.google.android.apps.nexuslauncher", session_id: session });
}

/** A shell script that notes each adb run in `log`, then runs the real adb: the number of adb processes. */
function countingAdb(log: string): string {
  const path = join(log, "..", "adb");
  writeFileSync(path, `#!/bin/sh\necho "$*" >> "$AMH_BENCH_ADB_LOG"\nexec "${process.env["ADB"] ?? "adb"}" "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
