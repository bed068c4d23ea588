/**
 * The start-up lock sweep's question (R41): is the adb server a dead holder's lock names gone? A local one that
 * refuses is gone; one that listens is told apart by its answer to `host:version`, at once: an adb server says
 * nothing to a connection that asks nothing, so waiting for it cost every harness start the probe's whole
 * second while a dead holder's lock named a live server (the default adb server of a killed serve --device).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { localAdbServerGone } from "../../src/adapters/adb/adb_server_probe.ts";
import { createTcpSocketProbe } from "../../src/adapters/tcp_socket_probe.ts";
import type { SocketAnswer, SocketProbe } from "../../src/ports/socket_probe.ts";
import { resolveScenario, ScenarioDevice, startAdbServer } from "../../src/sim/mod.ts";

function recordingProbe(): { socket: SocketProbe; answers: SocketAnswer[] } {
  const real = createTcpSocketProbe();
  const answers: SocketAnswer[] = [];
  return {
    answers,
    socket: { exchange: async (...args) => (answers.push(await real.exchange(...args)), answers.at(-1)!) },
  };
}

test("a live local adb server is not gone, known by its answer, not by the probe's timeout; once stopped it is gone (R41)", async () => {
  const server = await startAdbServer(new ScenarioDevice(resolveScenario("settings")));
  const { socket, answers } = recordingProbe();
  try {
    assert.equal(await localAdbServerGone(socket, server.socketSpec), false);
    assert.deepEqual(answers.map((a) => a.kind), ["reply"], JSON.stringify(answers));
  } finally {
    await server.stop();
  }
  assert.equal(await localAdbServerGone(socket, server.socketSpec), true);
  assert.equal(await localAdbServerGone(socket, "tcp:farm-a.example:5037"), false, "another host is never gone here");
});
