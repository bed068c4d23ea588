/**
 * The device lock names a device by adb server and serial: two harness processes whose devices share a
 * serial but sit behind different adb servers (two `serve --device sim`, the sim next to a real
 * emulator-5554, a device farm) do not lock each other out; the same server and serial still exclude.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createDeviceLock } from "../../src/adapters/evidence/device_lock.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import { createNodeProcessProbe } from "../../src/adapters/evidence/process_probe.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { tempDir } from "../evidence/temp_dir.ts";
import { type Connected, connectInMemory, envelopeOf } from "../support/mcp_client.ts";
import { FAKE_STATUS, fakeWorld } from "../support/mcp_fakes.ts";

/** One harness "process": its own observer on `adbServer`, the real lock in the shared lock directory. */
function harness(lockDir: string, adbServer: string) {
  const world = fakeWorld();
  world.observer.adbServer = adbServer;
  const fs = createNodeFileSystem();
  world.deps.lock = createDeviceLock({ directory: lockDir, fs, clock: world.deps.clock, probe: createNodeProcessProbe() });
  return world;
}

async function holdWhileCalling(lockDir: string, firstServer: string, secondServer: string) {
  const first = harness(lockDir, firstServer);
  const second = harness(lockDir, secondServer);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered = false;
  first.observer.behaviour.status = async () => {
    entered = true;
    await gate;
    return { ...FAKE_STATUS };
  };
  const a: Connected = await connectInMemory(createHarnessServer(first.deps));
  const b: Connected = await connectInMemory(createHarnessServer(second.deps));
  try {
    const held = a.client.callTool({ name: "device_status", arguments: {} });
    while (!entered) await new Promise((r) => setTimeout(r, 1));
    const during = envelopeOf(await b.client.callTool({ name: "device_status", arguments: {} }));
    release();
    assert.equal(envelopeOf(await held).ok, true);
    return during;
  } finally {
    release();
    await a.close();
    await b.close();
  }
}

test("the same serial behind two different adb servers: both work at once", async (t) => {
  const during = await holdWhileCalling(tempDir(t), "tcp:127.0.0.1:41001", "tcp:127.0.0.1:41002");
  assert.equal(during.ok, true, JSON.stringify(during.error));
});

test("the same serial behind the same adb server: the second is EMULATOR_BUSY", async (t) => {
  const during = await holdWhileCalling(tempDir(t), "tcp:127.0.0.1:5037", "tcp:127.0.0.1:5037");
  assert.equal(during.error?.code, "EMULATOR_BUSY");
  assert.match(during.error?.message ?? "", /tcp:127\.0\.0\.1:5037/);
});
