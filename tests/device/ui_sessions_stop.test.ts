/**
 * Stopping while a UiAutomator2 session start is still on its way: the server waits (bounded) to delete it on
 * Appium, and says so on stderr instead of sitting silent for up to a minute; with nothing starting it says
 * nothing and does not wait.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createUiSessions } from "../../src/device/ui_sessions.ts";
import type { UiDriverFactory } from "../../src/ports/ui_driver.ts";
import { fakeLock } from "../support/mcp_fakes.ts";
import { createVirtualClock } from "../support/virtual_clock.ts";

function layerWith(starting: number) {
  const lines: string[] = [];
  const drivers: UiDriverFactory = {
    endpoint: "in-process",
    open: () => Promise.reject(new Error("not used")),
    drain: async (onWait) => {
      if (starting > 0) onWait?.(starting);
    },
  };
  const layer = createUiSessions({
    drivers,
    lock: fakeLock(),
    clock: createVirtualClock(),
    logger: { info: (line) => lines.push(line), warn: (line) => lines.push(line), error: (line) => lines.push(line) },
    idleTimeoutMs: 60_000,
    warmIdleTimeoutMs: 0,
    newSessionId: () => "s-1",
  });
  return { layer, lines };
}

test("closeAll with a session start on its way says on stderr what it waits for and how long at most", async () => {
  const { layer, lines } = layerWith(1);
  await layer.closeAll("the harness is stopping");
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(lines[0]!, /^stopping: waiting up to 60 s for 1 UiAutomator2 session start\(s\) still on their way, to delete them/);
});

test("closeAll with nothing starting says nothing", async () => {
  const { layer, lines } = layerWith(0);
  await layer.closeAll("the harness is stopping");
  assert.deepEqual(lines, []);
});
