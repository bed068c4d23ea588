/**
 * The webdriverio UiDriver against the simulated device's own UiAutomator2 endpoint (real HTTP, real
 * W3C answers): how the protocol's element errors come back through appium_failure's closed codes; and against
 * small fake endpoints (`fakeAppium`) for what a simulator does not do: a slow start, a settings call never answered.
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import { test } from "node:test";
import { createAppiumDriverFactory } from "../../src/adapters/appium/mod.ts";
import { HarnessError } from "../../src/errors.ts";
import { startSimDevice } from "../../src/sim/mod.ts";

test("tapping an element the screen no longer has is UI_ELEMENT_NOT_FOUND (read again), not APPIUM_UNAVAILABLE", async () => {
  const sim = await startSimDevice({});
  const driver = await createAppiumDriverFactory({
    appiumUrl: sim.appiumUrl,
    adbServer: sim.adbServerSocket,
    requestTimeoutMs: 10_000,
    newCommandTimeoutS: 90,
  }).open(sim.device.serial, { timeoutMs: 10_000 });
  try {
    const source = await driver.source();
    assert.match(source, /Network &amp; internet/);
    const [id] = await driver.findElements("//*[@text='Network & internet']");
    assert.ok(id !== undefined);
    await driver.back(); // the screen changes under the agent: Settings' home is gone
    await assert.rejects(driver.click(id!), (error: unknown) => {
      assert.ok(error instanceof HarnessError);
      assert.equal(error.code, "UI_ELEMENT_NOT_FOUND", error.message);
      assert.match(error.message, /screen changed/i);
      return true;
    });
  } finally {
    await driver.delete();
    await sim.stop();
  }
});

/** A W3C endpoint on an ephemeral port: `handle` gets each request with its body and answers `{value}`, at once,
 * later or never. `close` ends it, open connections included. */
async function fakeAppium(
  handle: (req: IncomingMessage, body: string, answer: (value: unknown) => void) => void,
): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => body += chunk);
    req.on("end", () =>
      handle(req, body, (value) => {
        res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ value }));
      }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test("a session start abandoned by its operation is deleted when it arrives, and drain() says it waits and waits for that", async () => {
  const deleted: string[] = [];
  const appium = await fakeAppium((req, _body, answer) => {
    if (req.method === "POST" && req.url === "/session") {
      // A driver that takes its time to start, as UiAutomator2 does on a real device (20–45 s).
      setTimeout(() => answer({ sessionId: "late-1", capabilities: { platformName: "Android" } }), 800);
      return;
    }
    if (req.method === "DELETE") deleted.push(req.url ?? "");
    answer(null);
  });
  try {
    const factory = createAppiumDriverFactory({
      appiumUrl: appium.url,
      adbServer: "tcp:127.0.0.1:5037",
      requestTimeoutMs: 10_000,
      newCommandTimeoutS: 90,
    });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(new HarnessError("OPERATION_TIMEOUT", "gave up")), 100);
    await assert.rejects(
      factory.open("emulator-5554", { timeoutMs: 10_000, signal: cancel.signal }),
      (e: unknown) => (e as HarnessError).code === "OPERATION_TIMEOUT",
    );
    assert.deepEqual(deleted, [], "not arrived yet");
    const heard: number[] = [];
    await factory.drain((starting) => heard.push(starting));
    assert.deepEqual(deleted, ["/session/late-1"], "deleted as soon as it arrived; drain waited for it");
    assert.deepEqual(heard, [1], "drain said, before waiting, that one start was on its way");
    await factory.drain((starting) => heard.push(starting));
    assert.deepEqual(heard, [1], "nothing on its way: nothing said");
  } finally {
    appium.close();
  }
});

test("a session start cancelled while its waitForIdleTimeout setting is on its way is abandoned at once and deleted (R18)", async () => {
  const deleted: string[] = [];
  const appium = await fakeAppium((req, _body, answer) => {
    if (req.method === "POST" && req.url === "/session") {
      return answer({ sessionId: "slow-settings", capabilities: { platformName: "Android" } });
    }
    if (req.url?.endsWith("/appium/settings")) return; // a proxy (or a busy server) that never answers the settings call
    if (req.method === "DELETE") deleted.push(req.url ?? "");
    answer(null);
  });
  try {
    const factory = createAppiumDriverFactory({
      appiumUrl: appium.url,
      adbServer: "tcp:127.0.0.1:5037",
      requestTimeoutMs: 3000,
      newCommandTimeoutS: 90,
      uiIdleTimeoutMs: 3000,
    });
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(new HarnessError("OPERATION_TIMEOUT", "gave up")), 300);
    await assert.rejects(
      factory.open("emulator-5554", { timeoutMs: 10_000, signal: cancel.signal }),
      (e: unknown) => (e as HarnessError).code === "OPERATION_TIMEOUT",
      "the operation gave up: the start must not answer a driver after that",
    );
    await factory.drain();
    assert.deepEqual(deleted, ["/session/slow-settings"], "the abandoned session is deleted on Appium, and drain waits for that");
  } finally {
    appium.close();
  }
});

test("the session's idle timeout is the value read back: 3000 from the simulator, null from a proxy that ignores the setting", async () => {
  const sim = await startSimDevice({});
  const posted: unknown[] = [];
  const appium = await fakeAppium((req, body, answer) => {
    if (req.method === "POST" && req.url === "/session") return answer({ sessionId: "deaf", capabilities: { platformName: "Android" } });
    if (req.method === "POST" && req.url?.endsWith("/appium/settings")) posted.push(JSON.parse(body));
    if (req.method === "GET" && req.url?.endsWith("/appium/settings")) return answer({ waitForIdleTimeout: 10_000 }); // still the default
    answer(null);
  });
  const options = { adbServer: sim.adbServerSocket, requestTimeoutMs: 10_000, newCommandTimeoutS: 90, uiIdleTimeoutMs: 3000 };
  try {
    const set = await createAppiumDriverFactory({ ...options, appiumUrl: sim.appiumUrl }).open(sim.device.serial, { timeoutMs: 10_000 });
    assert.equal(set.idleTimeoutMs, 3000);
    await set.delete();
    const deaf = await createAppiumDriverFactory({ ...options, appiumUrl: appium.url }).open("emulator-5554", {
      timeoutMs: 10_000,
    });
    assert.deepEqual(posted, [{ settings: { waitForIdleTimeout: 3000 } }], "the setting was asked for");
    assert.equal(deaf.idleTimeoutMs, null, "not held: unknown, so every read that differs is confirmed");
    await deaf.delete();
  } finally {
    appium.close();
    await sim.stop();
  }
});

test("the W3C client's own failures keep their codes: a request unanswered past its limit is OPERATION_TIMEOUT, a closed port APPIUM_UNAVAILABLE", async () => {
  const appium = await fakeAppium((req, _body, answer) => {
    if (req.method === "POST" && req.url === "/session") return answer({ sessionId: "mute", capabilities: { platformName: "Android" } });
    if (req.url?.endsWith("/source")) return; // a server that never answers this one
    answer(null);
  });
  try {
    const driver = await createAppiumDriverFactory({
      appiumUrl: appium.url,
      adbServer: "tcp:127.0.0.1:5037",
      requestTimeoutMs: 1000,
      newCommandTimeoutS: 90,
    }).open("emulator-5554", { timeoutMs: 10_000 });
    await assert.rejects(driver.source(), (e: unknown) => (e as HarnessError).code === "OPERATION_TIMEOUT");
    await driver.delete();
  } finally {
    appium.close();
  }
  const closed = createAppiumDriverFactory({
    appiumUrl: appium.url,
    adbServer: "tcp:127.0.0.1:5037",
    requestTimeoutMs: 1000,
    newCommandTimeoutS: 90,
  });
  await assert.rejects(closed.open("emulator-5554", { timeoutMs: 10_000 }), (e: unknown) => {
    assert.equal((e as HarnessError).code, "APPIUM_UNAVAILABLE");
    assert.match((e as HarnessError).message, /Nothing answers at the Appium URL/);
    return true;
  });
});
