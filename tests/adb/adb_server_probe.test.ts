/**
 * `doctor`'s question to an adb server: its protocol, over a plain socket. A live server is known by its answer to
 * `host:version`, at once: an adb server says nothing to a connection that asks nothing, so waiting for its first
 * bytes would cost the probe's whole timeout. One that stopped refuses.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { probeAdbServerAt } from "../../src/adapters/adb/adb_server_probe.ts";
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

test("a live adb server is known by its answer to host:version, not by the probe's timeout; once stopped it refuses", async () => {
  const server = await startAdbServer(new ScenarioDevice(resolveScenario("settings")));
  const port = Number(/:(\d+)$/.exec(server.socketSpec)![1]);
  const { socket, answers } = recordingProbe();
  try {
    const live = await probeAdbServerAt(socket, "127.0.0.1", port, { timeoutMs: 10_000 });
    assert.equal(live.kind, "answers", JSON.stringify(live));
    assert.deepEqual(answers.map((a) => a.kind), ["reply"], JSON.stringify(answers));
  } finally {
    await server.stop();
  }
  const gone = await probeAdbServerAt(socket, "127.0.0.1", port, { timeoutMs: 10_000 });
  assert.deepEqual(gone.kind === "none" ? gone.refused : gone, true);
});
