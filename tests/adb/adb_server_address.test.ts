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
  assert.equal(adbServerAddress("tcp:[2001:DB8:0:0::1]:5037"), "tcp:[2001:db8::1]:5037");
});

test("every spelling of this machine is one server, so two processes always meet at one lock (R14)", () => {
  const local = [
    "127.1",
    "127.0.0.1",
    "127.000.000.001",
    "0x7f.1",
    "2130706433",
    "127.0.1.1",
    "0.0.0.0",
    "0",
    "localhost",
    "LocalHost.",
    "ip6.localhost",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "::1",
    "[::]",
    "[::ffff:127.0.0.1]",
    "qa-box",
    "10.0.2.15",
    "[fe80::1]",
  ];
  for (const host of local) {
    assert.equal(adbServerAddress(`tcp:${host}:41001`, ["QA-box", "10.0.2.15", "fe80::1"]), "tcp:127.0.0.1:41001", host);
  }
  for (const other of ["10.0.2.16", "farm-a", "[2001:db8::1]", "128.0.0.1"]) {
    assert.notEqual(adbServerAddress(`tcp:${other}:41001`, ["qa-box", "10.0.2.15"]), "tcp:127.0.0.1:41001", other);
  }
  assert.notEqual(adbServerAddress("tcp:127.1:41001"), adbServerAddress("tcp:127.1:41002"), "the port still counts");
  const client = (socket: string) =>
    createAdbClient({ runner: fakeRunner(() => undefined), program: { program: "adb", source: "PATH" }, serverSocket: socket });
  assert.equal(client("tcp:0.0.0.0:41001").serverAddress, client("tcp:localhost:41001").serverAddress);
});

test("the observer names the adb server its client talks to (the sim's own socket, or the default)", () => {
  const runner = fakeRunner(() => undefined);
  const program = { program: "adb", source: "PATH" as const };
  const clock = { now: () => Date.now(), sleep: async () => {} };
  assert.equal(createAdbObserver({ adb: createAdbClient({ runner, program }), clock }).adbServer, DEFAULT_ADB_SERVER);
  const sim = createAdbObserver({ adb: createAdbClient({ runner, program, serverSocket: "tcp:127.0.0.1:40123" }), clock });
  assert.equal(sim.adbServer, "tcp:127.0.0.1:40123");
});
