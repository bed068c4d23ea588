/**
 * A signal that lands while `ui_session_open` is on its way (a18): SIGHUP or SIGTERM sent after the call was
 * sent and before its answer. The simulated device runs in this test process, so it outlives the server: no
 * Appium session the server opened may be left on it, and the lock file is gone.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { adbServerAddress } from "../../src/adapters/adb/mod.ts";
import { currentUserFacts, lockDirectory, lockFileName } from "../../src/adapters/evidence/mod.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { appiumSessions, type BatteryTarget, serveOn } from "../support/act_battery.ts";
import { pidGoneWithin } from "../support/mcp_e2e.ts";
import { LOADED_WAIT_MS } from "../support/time_bounds.ts";

let target: BatteryTarget;

before(async () => {
  const sim = await startSimDevice({});
  target = { sim, appiumUrl: sim.appiumUrl };
});

after(async () => {
  await target?.sim.stop();
});

function lockFile(): string {
  return join(
    lockDirectory(currentUserFacts(process.platform, "")).path,
    lockFileName({ adbServer: adbServerAddress(target.sim.adbServerSocket), udid: target.sim.device.serial }),
  );
}

async function waitForExit(pid: number): Promise<void> {
  if (!(await pidGoneWithin(pid, LOADED_WAIT_MS))) assert.fail(`serve ${pid} still runs after the signal`);
}

async function settledSessions(): Promise<string[]> {
  // The device may still be answering a create the server sent before it died: let it land, then look.
  await new Promise((r) => setTimeout(r, 1500));
  return appiumSessions(target.sim.appiumUrl);
}

for (const signal of ["SIGHUP", "SIGTERM"] as const) {
  for (const delayMs of [0, 20, 150]) {
    test(`${signal} ${delayMs} ms after ui_session_open was sent leaves no session and no lock (a18)`, async () => {
      const before = await appiumSessions(target.sim.appiumUrl);
      const served = await serveOn(target);
      try {
        await served.server.client.listTools();
        const pending = served.server.client.callTool({ name: "ui_session_open", arguments: {} }).catch(() => null);
        await new Promise((r) => setTimeout(r, delayMs));
        process.kill(served.server.pid!, signal);
        await waitForExit(served.server.pid!);
        await pending;
        assert.deepEqual(await settledSessions(), before, `a session is left behind; stderr: ${served.server.stderr()}`);
        assert.equal(existsSync(lockFile()), false, "the lock file is removed");
      } finally {
        await served.close();
        served.home.remove();
      }
    });
  }
}

test("SIGHUP while a phone-slow ui_session_open is being created leaves no session behind (a18)", { timeout: 60_000 }, async () => {
  const slow = await startSimDevice({ latency: "device" });
  const slowTarget = { sim: slow, appiumUrl: slow.appiumUrl };
  try {
    const before = await appiumSessions(slow.appiumUrl);
    const served = await serveOn(slowTarget);
    try {
      await served.server.client.listTools();
      const pending = served.server.client.callTool({ name: "ui_session_open", arguments: {} }).catch(() => null);
      await new Promise((r) => setTimeout(r, 1000));
      process.kill(served.server.pid!, "SIGHUP");
      await waitForExit(served.server.pid!);
      await pending;
      // The phone finishes creating the session the dead server asked for (DEVICE_FIGURES.newSession, 20 s).
      await new Promise((r) => setTimeout(r, 22_000));
      assert.deepEqual(await appiumSessions(slow.appiumUrl), before, `a session is left behind; stderr: ${served.server.stderr()}`);
    } finally {
      await served.close();
      served.home.remove();
    }
  } finally {
    await slow.stop();
  }
});
