import assert from "node:assert/strict";
import { test } from "node:test";
import { onlineDevices, resolveDevice } from "../../src/adapters/adb/resolve_device.ts";
import { parseAdbDevices } from "../../src/adapters/adb/parse_devices.ts";
import { HarnessError } from "../../src/errors.ts";
import { adbSamplesSkipReason, sample } from "./fixture_files.ts";

const skip = adbSamplesSkipReason();
const from = (name: string) => parseAdbDevices(sample("adb-devices", name));

/** Two real `adb devices -l` lines (a Samsung and a Xiaomi), behind one server, as a host with both plugged in lists them. */
const twoPhones = () => [
  ...from("devices-l-usb-samsung-plus-tcp-proxy-no-props.txt").slice(0, 1),
  ...from("devices-l-usb-xiaomi-alioth-line.txt"),
];

function failure(fn: () => unknown): HarnessError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  assert.fail("no error");
}

test("a serial is that device, exactly; a model or device name matches case-insensitively", { skip }, () => {
  const phones = twoPhones();
  assert.equal(resolveDevice(phones, { asked: "SERIAL04" }).serial, "SERIAL04");
  assert.equal(resolveDevice(phones, { asked: "sm_s918b" }).serial, "SERIAL00003", "model, lower case");
  assert.equal(resolveDevice(phones, { asked: "SM S918B" }).serial, "SERIAL00003", "a space for adb's _");
  assert.equal(resolveDevice(phones, { asked: "Alioth" }).serial, "SERIAL04", "the device name");
  assert.equal(failure(() => resolveDevice(phones, { asked: "serial04" })).code, "EMULATOR_UNAVAILABLE", "a serial is exact");
});

test("omitted: the bound device, else the only online one; several online and none bound is refused with the list", { skip }, () => {
  const phones = twoPhones();
  assert.equal(resolveDevice(phones, { bound: "SERIAL04" }).serial, "SERIAL04");
  assert.equal(resolveDevice(phones, { asked: "SERIAL00003", bound: "SERIAL04" }).serial, "SERIAL00003", "the argument wins");
  assert.equal(resolveDevice(from("devices-one-offline-one-device.txt"), {}).serial, "emulator-5556");
  const several = failure(() => resolveDevice(phones, {}));
  assert.equal(several.code, "EMULATOR_UNAVAILABLE");
  assert.equal(
    several.message,
    '2 devices are online (SERIAL00003 SM_S918B, SERIAL04 M2012K11AC) and this server has none bound: pass "device" ' +
      "(a serial, or a model) to choose one; device_status lists them.",
  );
  assert.deepEqual(several.details?.["online"], [{ udid: "SERIAL00003", model: "SM_S918B" }, { udid: "SERIAL04", model: "M2012K11AC" }]);
  const crlf = failure(() => resolveDevice(from("devices-mdns-tls-wireless-plus-emulator-crlf.txt"), {}));
  assert.match(crlf.message, /^2 devices are online \(adb-SERIAL00000001-a4QqY3\._adb-tls-connect\._tcp, emulator-5554\)/);
});

test("a name no online device has, or none online: EMULATOR_UNAVAILABLE naming what is online and what to pass", { skip }, () => {
  const unknown = failure(() => resolveDevice(twoPhones(), { asked: "Pixel 7" }));
  assert.equal(unknown.code, "EMULATOR_UNAVAILABLE");
  assert.equal(
    unknown.message,
    'No device "Pixel 7": online are SERIAL00003 SM_S918B, SERIAL04 M2012K11AC. Pass one of these serials or models as "device" ' +
      "(device_status lists them), or connect that device and retry.",
  );
  const none = failure(() => resolveDevice(from("devices-offline-emulator.txt"), { asked: "Nexus_7" }));
  assert.match(none.message, /^No device "Nexus_7": no device is online\./);
});

test("a listed serial that is not online says its state and remedy, as the bound device does", { skip }, () => {
  const offline = failure(() => resolveDevice(from("devices-one-offline-one-device.txt"), { asked: "emulator-5554" }));
  assert.equal(offline.code, "EMULATOR_UNAVAILABLE");
  assert.match(offline.message, /"emulator-5554" is offline: reconnect it or restart the emulator/);
});

test("a name that fits several online devices asks for the serial (INVALID_ARGUMENT)", { skip }, () => {
  const twins = parseAdbDevices(
    "List of devices attached\nemulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa\n" +
      "emulator-5556          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa\n",
  );
  const ambiguous = failure(() => resolveDevice(twins, { asked: "SDK_GPHONE64_X86_64" }));
  assert.equal(ambiguous.code, "INVALID_ARGUMENT");
  assert.equal(
    ambiguous.message,
    '"SDK_GPHONE64_X86_64" fits 2 online devices (emulator-5554 sdk_gphone64_x86_64, emulator-5556 sdk_gphone64_x86_64): ' +
      'pass the serial of the one you mean as "device".',
  );
  assert.equal(resolveDevice(twins, { asked: "emulator-5556" }).serial, "emulator-5556");
  const second = parseAdbDevices(
    "emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa\n" +
      "emulator-5556          device product:sdk_gphone64_x86_64 model:Pixel_7 device:emu64xa\n",
  );
  assert.equal(resolveDevice(second, { asked: "sdk_gphone64_x86_64" }).serial, "emulator-5554", "a model before a product name");
  assert.equal(failure(() => resolveDevice(second, { asked: "emu64xa" })).code, "INVALID_ARGUMENT", "a device name both have");
});

test("onlineDevices lists the online ones with the model -l prints (empty without -l properties)", { skip }, () => {
  assert.deepEqual(onlineDevices(from("devices-l-usb-samsung-plus-tcp-proxy-no-props.txt")), [
    { udid: "SERIAL00003", model: "SM_S918B" },
    { udid: "127.0.0.1:34381", model: "" },
  ]);
  assert.deepEqual(onlineDevices(from("devices-one-offline-one-device.txt")), [{ udid: "emulator-5556", model: "" }]);
});
