import assert from "node:assert/strict";
import { test } from "node:test";
import { parseAdbDevices } from "../../src/adapters/adb/parse_devices.ts";
import { adbSamplesSkipReason, eachSample } from "./fixture_files.ts";

type Row = [serial: string, state: string, model?: string];

const EXPECTED: Record<string, Row[]> = {
  "devices-l-legacy-trailing-space-nexus7.txt": [["SERIAL03", "device", "Nexus_7"]],
  "devices-l-macos-usb-locationid-huawei.txt": [["SERIAL0000000003", "device", "ALP_AL00"]],
  "devices-l-usb-samsung-plus-tcp-proxy-no-props.txt": [["SERIAL00003", "device", "SM_S918B"], ["127.0.0.1:34381", "device"]],
  "devices-l-usb-xiaomi-alioth-line.txt": [["SERIAL04", "device", "M2012K11AC"]],
  "devices-l-xiaomi-mi11lite-usb-one-device.txt": [["SERIAL01", "device", "M2101K9AG"]],
  "devices-mdns-tls-wireless-plus-emulator-crlf.txt": [
    ["adb-SERIAL00000001-a4QqY3._adb-tls-connect._tcp", "device"],
    ["emulator-5554", "device"],
  ],
  "devices-no-permissions-missing-udev-rules.txt": [["SERIAL02", "no permissions"]],
  "devices-offline-emulator.txt": [["emulator-5554", "offline"]],
  "devices-one-offline-one-device.txt": [["emulator-5554", "offline"], ["emulator-5556", "device"]],
  "devices-tcp-unauthorized-legacy-trailing-space.txt": [["10.10.176.186:7401", "unauthorized"]],
  "devices-unauthorized.txt": [["SERIAL0000000002", "unauthorized"]],
  "devices-windows-daemon-autostart-one-device.txt": [["SERIAL0000000001", "device"]],
  // adb client error texts list no device at all.
  "error-failed-to-get-feature-set-unauthorized.txt": [],
  "error-shell-device-unauthorized.txt": [],
  "error-shell-no-devices-after-daemon-start.txt": [],
  "error-shell-unauthorized-after-server-version-mismatch-adb41.txt": [],
};

test("adb devices: every real sample gives its serials, states and models", { skip: adbSamplesSkipReason() }, () => {
  eachSample("adb-devices", EXPECTED, (text, want, name) => {
    const got = parseAdbDevices(text).map((d): Row =>
      d.properties["model"] === undefined ? [d.serial, d.state] : [d.serial, d.state, d.properties["model"]]
    );
    assert.deepEqual(got, want, name);
  });
});

test("adb devices: -l keeps transport ids and the no-permissions explanation", { skip: adbSamplesSkipReason() }, () => {
  const [usb, tcp] = parseAdbDevices(
    "SERIAL00003            device usb:3-5.3.2 product:dm3qxxx model:SM_S918B device:dm3q transport_id:27\n127.0.0.1:34381        device transport_id:33\n",
  );
  assert.equal(usb!.properties["transport_id"], "27");
  assert.equal(usb!.properties["usb"], "3-5.3.2");
  assert.deepEqual(tcp!.properties, { transport_id: "33" });
  const [noPerm] = parseAdbDevices(
    "List of devices attached\nSERIAL02\tno permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html]\n",
  );
  assert.match(noPerm!.detail ?? "", /udev rules/);
});
