/**
 * The MCP resource doctor://report through the SDK client over the in-memory transport: listed with
 * its name and JSON type, read as the doctor report, computed afresh on every read (the simulated device
 * turned offline between two reads shows in the second), and absent when the server is built without it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DOCTOR_CHECKS, type DoctorReport, runDoctor } from "../../src/doctor/mod.ts";
import { DOCTOR_REPORT_URI } from "../../src/mcp/doctor_resource.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { doctorInputs } from "../doctor/doctor_inputs.ts";
import { ADB, NO_ADB } from "../sim/adb_cli.ts";
import { connectInMemory } from "../support/mcp_client.ts";
import { fakeWorld } from "../support/mcp_fakes.ts";

test("doctor://report is listed, and each read runs the checks again", { skip: NO_ADB }, async (t) => {
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  const inputs = doctorInputs(t, { ADB: ADB!, ADB_SERVER_SOCKET: sim.adbServerSocket, APPIUM_URL: sim.appiumUrl }, {
    simulated: { serial: sim.device.serial },
  });
  let reads = 0;
  const server = createHarnessServer(fakeWorld().deps, undefined, {
    doctorReport: () => {
      reads += 1;
      return runDoctor(DOCTOR_CHECKS, inputs, { timeoutMs: 3000 });
    },
  });
  const connected = await connectInMemory(server);
  t.after(() => connected.close());

  const { resources } = await connected.client.listResources();
  const listed = resources.find((r) => r.uri === DOCTOR_REPORT_URI);
  assert.deepEqual({ name: listed?.name, mimeType: listed?.mimeType, title: listed?.title }, {
    name: "doctor-report",
    mimeType: "application/json",
    title: "Doctor report",
  });
  assert.equal(reads, 0, "listing must not run the checks");

  const read = async (): Promise<DoctorReport> => {
    const answer = await connected.client.readResource({ uri: DOCTOR_REPORT_URI });
    const content = answer.contents[0] as { uri: string; mimeType: string; text: string };
    assert.deepEqual([content.uri, content.mimeType], [DOCTOR_REPORT_URI, "application/json"]);
    return JSON.parse(content.text) as DoctorReport;
  };
  const first = await read();
  assert.equal(first.total, 8);
  assert.equal(first.simulated, true);
  const device = (r: DoctorReport) => r.checks.find((c) => c.id === "device")!;
  assert.equal(device(first).ok, true, device(first).detail);

  sim.device.setFaults({ state: "offline" });
  const second = await read();
  assert.equal(reads, 2);
  assert.equal(device(second).ok, false);
  assert.equal(device(second).detail, "emulator-5554 is offline, not online");
  assert.ok(second.blocking > first.blocking);
});

test("a server built without a doctor has no doctor://report", async (t) => {
  const connected = await connectInMemory(createHarnessServer(fakeWorld().deps));
  t.after(() => connected.close());
  const { resources } = await connected.client.listResources();
  assert.equal(resources.some((r) => r.uri === DOCTOR_REPORT_URI), false);
  await assert.rejects(connected.client.readResource({ uri: DOCTOR_REPORT_URI }));
});
