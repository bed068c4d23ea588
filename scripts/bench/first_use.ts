/**
 * Bench section "first use": the direct backend (no Appium) on the simulated device with the phone profile
 * (`--latency device`) and the warm device on (the default 5-minute idle timeout). The first `ui_tap` without
 * `session_id` on a fresh device installs the UiAutomator2 server's two APKs, starts its instrumentation, opens
 * the warm session and taps: its total, and its parts from the server's progress steps (time from each step to
 * the next). Then the same `ui_tap` warm (the held session), median/p95 over the repetitions. Issue 24's target
 * row "first act on a fresh device (install + start + first tap): reported, with its parts".
 */
import { ACT_DEFAULTS } from "../../contracts/act_defaults.ts";
import { createDirectDriverFactory } from "../../src/adapters/uia2_direct/mod.ts";
import { packagedServerApksWithSizes } from "../../src/adapters/uia2_direct/server_package.ts";
import type { UiDriverFactory } from "../../src/ports/ui_driver.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { openBenchHarness } from "./in_memory_harness.ts";
import { type BenchIO, type BenchSection, median, p95 } from "./section.ts";

/** The warm device's idle timeout serve uses by default (5 minutes). */
const WARM_IDLE_MS = 300_000;
const TAP = { selector: { text: "Network & internet" } };

export const firstUseSection: BenchSection = {
  name: "first use: install + start + first ui_tap on a fresh device, then warm ui_tap (direct backend, phone profile)",
  async run(io: BenchIO) {
    const sim = await startSimDevice({ scenario: "settings", latency: "device" });
    const steps: { at: number; message: string }[] = [];
    let direct: ReturnType<typeof createDirectDriverFactory> | undefined;
    let opened = 0;
    const harness = await openBenchHarness(sim, {
      folder: "amh-bench-first-",
      drivers: (adb, _observer, clock): UiDriverFactory => {
        const factory = createDirectDriverFactory({
          adb,
          clock,
          apks: packagedServerApksWithSizes, // the package's own APK files (appium-uiautomator2-server), as serve streams them
          requestTimeoutMs: 60_000,
          uiIdleTimeoutMs: ACT_DEFAULTS.uiIdleTimeoutMs,
          onProgress: (progress) => steps.push({ at: performance.now(), message: progress.message }),
        });
        direct = factory;
        return {
          endpoint: factory.endpoint,
          drain: () => factory.drain(),
          async open(udid, options) {
            const driver = await factory.open(udid, options);
            opened = performance.now();
            return driver;
          },
        };
      },
      idleTimeoutMs: 600_000,
      warmIdleTimeoutMs: WARM_IDLE_MS,
      actionTimeoutMs: 120_000,
      stop: () => direct?.stop() ?? Promise.resolve(),
    });
    const call = (name: string, args: Record<string, unknown>) => harness.call(name, args);
    try {
      io.print("simulated device with the phone profile, direct backend (no Appium), warm idle timeout 5 min, in-memory MCP (ms)");
      const start = performance.now();
      await call("ui_tap", TAP);
      const end = performance.now();
      io.print(`first ui_tap on a fresh device (no session_id)  total ${(end - start).toFixed(0)}`);
      const marks = [...steps, { at: opened, message: "warm session open (server answered /status, POST /session)" }];
      for (let i = 0; i < marks.length; i++) {
        const next = marks[i + 1]?.at ?? end;
        const label = i === marks.length - 1 ? `${marks[i]!.message}, then the tap` : marks[i]!.message;
        io.print(`  ${(marks[i]!.at - start).toFixed(0).padStart(6)}  +${(next - marks[i]!.at).toFixed(0).padStart(6)}  ${label}`);
      }
      await call("device_back", {});
      const totals: number[] = [];
      for (let i = 0; i < io.repetitions; i++) {
        const t0 = performance.now();
        await call("ui_tap", TAP);
        totals.push(performance.now() - t0);
        await call("device_back", {}); // back to where the row starts (not timed)
      }
      io.print(`warm ui_tap (no session_id), ${io.repetitions} calls  median ${median(totals).toFixed(0)}  p95 ${p95(totals).toFixed(0)}`);
    } finally {
      await harness.close();
    }
  },
};
