/**
 * Several devices from one server (issue 26), end to end: the compiled `serve --device sim --devices 2` over real stdio
 * (two simulated devices behind one adb server, none bound; the real adb client; the direct backend's own UiAutomator2
 * server on each) driven by the SDK client. Each call names its device by serial or model; acts land on the device
 * named and on no other; a lease (ui_session_open) on one leaves the other free; and every way a choice fails answers a
 * typed error that lists the online devices and says how to choose.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Envelope } from "../../contracts/envelope.ts";
import { envelopeOf, type SpawnedServer, spawnServe } from "../support/mcp_client.ts";
import { makeServeHome, type ServeHome } from "../support/mcp_e2e.ts";

const FIRST = "emulator-5554";
const SECOND = "emulator-5556";

let home: ServeHome;
let served: SpawnedServer;

before(async () => {
  home = makeServeHome();
  served = await spawnServe(["--device", "sim", "--devices", "2"], home.env);
});

after(async () => {
  await served?.close();
  home?.remove();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  return envelopeOf(await served.client.callTool({ name, arguments: args }));
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  const envelope = await call(name, args);
  assert.equal(envelope.ok, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`);
  return envelope;
}

/** The texts of the device's current screen, as ui_get_tree's actions name them. */
async function screenOf(device: string): Promise<string> {
  return JSON.stringify((await ok("ui_get_tree", { device })).data["actions"]);
}

test("stderr says both simulated devices and that calls name theirs", () => {
  assert.match(
    served.stderr(),
    /the devices are SIMULATED: emulator-5554 \(sdk_gphone64_x86_64\), emulator-5556 \(sdk_gphone64_x86_64_2\)/,
  );
});

test("device_status names the device asked (serial or model, any case), lists both online and no default", async () => {
  const second = await ok("device_status", { device: SECOND });
  assert.equal(second.data["udid"], SECOND);
  assert.equal(second.data["model"], "sdk_gphone64_x86_64_2");
  assert.deepEqual(second.data["devices"], [
    { udid: FIRST, model: "sdk_gphone64_x86_64" },
    { udid: SECOND, model: "sdk_gphone64_x86_64_2" },
  ]);
  assert.equal(second.data["default_device"], null, "two online, none bound");
  assert.equal((await ok("device_status", { device: "SDK_GPHONE64_X86_64" })).data["udid"], FIRST, "a model, exactly");
  assert.equal((await ok("app_list", { device: "Sdk_Gphone64_X86_64_2" })).ok, true);
});

test("the resolution errors: none named, a name no device has, a name both have, a destructive call unnamed", async () => {
  const unnamed = await call("device_status");
  assert.equal(unnamed.error?.code, "EMULATOR_UNAVAILABLE");
  assert.equal(
    unnamed.error?.message,
    "2 devices are online (emulator-5554 sdk_gphone64_x86_64, emulator-5556 sdk_gphone64_x86_64_2) and this server has none " +
      'bound: pass "device" (a serial, or a model) to choose one; device_status lists them.',
  );
  const unknown = await call("ui_tap", { selector: { text: "Display" }, device: "Pixel 9" });
  assert.equal(unknown.error?.code, "EMULATOR_UNAVAILABLE");
  assert.match(unknown.error?.message ?? "", /^No device "Pixel 9": online are emulator-5554 sdk_gphone64_x86_64, emulator-5556 /);
  assert.match(unknown.error?.message ?? "", /Pass one of these serials or models as "device"/);
  const both = await call("ui_get_tree", { device: "emu64xa" }); // the device name the two share, as two emulators of one image
  assert.equal(both.error?.code, "INVALID_ARGUMENT");
  assert.match(both.error?.message ?? "", /^"emu64xa" fits 2 online devices .*: pass the serial of the one you mean as "device"\.$/);
  const clear = await call("app_clear", { package: "com.android.settings" });
  assert.equal(clear.error?.code, "INVALID_ARGUMENT");
  assert.match(clear.error?.message ?? "", /^app_clear cannot be undone, and 2 devices are online \(emulator-5554, emulator-5556\)/);
  const bad = await call("device_status", { device: "" });
  assert.equal(bad.error?.code, "INVALID_ARGUMENT", "an empty device is refused by the schema");
});

test("acts on each device land there alone; a lease on one leaves the other free", async () => {
  await ok("settings_open", { device: FIRST });
  await ok("settings_open", { device: SECOND });
  await ok("ui_tap", { selector: { text: "Network & internet" }, device: FIRST });
  assert.doesNotMatch(await screenOf(FIRST), /"Display"/, "the first left the Settings list");
  assert.match(await screenOf(SECOND), /"Network & internet"/, "the second still shows it");

  const opened = await ok("ui_session_open", { device: SECOND });
  const session = String(opened.data["session_id"]);
  try {
    const busy = await call("device_back", { device: SECOND });
    assert.equal(busy.error?.code, "EMULATOR_BUSY", "the leased device refuses an act outside its session");
    assert.match(busy.error?.message ?? "", new RegExp(`Device "${SECOND}" is held by UI session ${session}`));
    await ok("device_back", { device: FIRST }); // the other device is free
    assert.match(await screenOf(FIRST), /"Display"/, "back on the first's Settings list");
    await ok("ui_tap", { selector: { text: "Display" }, session_id: session }); // the session's device, unnamed
    assert.doesNotMatch(await screenOf(SECOND), /"Network & internet"/);
    const mismatch = await call("device_back", { session_id: session, device: FIRST });
    assert.equal(mismatch.error?.code, "INVALID_ARGUMENT");
    assert.match(mismatch.error?.message ?? "", new RegExp(`^UI session ${session} is on device ${SECOND}, not on "${FIRST}"`));
    await ok("device_back", { session_id: session, device: "sdk_gphone64_x86_64_2" }); // the same device by its model
    await ok("app_clear", { package: "com.android.settings", session_id: session }); // a session names its device
  } finally {
    await ok("ui_session_close", { session_id: session });
  }
  await ok("device_back", { device: SECOND }); // free again
});
