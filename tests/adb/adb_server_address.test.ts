import assert from "node:assert/strict";
import { test } from "node:test";
import { createAdbClient } from "../../src/adapters/adb/adb_client.ts";
import { adbServerAddress, DEFAULT_ADB_SERVER } from "../../src/adapters/adb/adb_server_address.ts";
import { createAdbObserver } from "../../src/adapters/adb/observer.ts";
import { fakeRunner } from "./fake_runner.ts";

test("adb server address: the default server has one name whatever its local spelling; others as given", () => {
  assert.equal(DEFAULT_ADB_SERVER, "tcp:127.0.0.1:5037");
  for (const same of [undefined, "", "tcp:5037", "tcp:localhost:5037", "tcp:LOCALHOST:5037", "tcp:127.0.0.1:5037"]) {
    assert.equal(adbServerAddress(same), DEFAULT_ADB_SERVER, String(same));
  }
  assert.equal(adbServerAddress("tcp:41001"), "tcp:127.0.0.1:41001");
  assert.equal(adbServerAddress("tcp:Farm-A.example:5037"), "tcp:farm-a.example:5037");
  assert.equal(adbServerAddress("tcp:[::1]:5037"), "tcp:[::1]:5037");
});

test("the observer names the adb server its client talks to (the sim's own socket, or the default)", () => {
  const runner = fakeRunner(() => undefined);
  const program = { program: "adb", source: "PATH" as const };
  const clock = { now: () => Date.now(), sleep: async () => {} };
  assert.equal(createAdbObserver({ adb: createAdbClient({ runner, program }), clock }).adbServer, DEFAULT_ADB_SERVER);
  const sim = createAdbObserver({ adb: createAdbClient({ runner, program, serverSocket: "tcp:127.0.0.1:40123" }), clock });
  assert.equal(sim.adbServer, "tcp:127.0.0.1:40123");
});
