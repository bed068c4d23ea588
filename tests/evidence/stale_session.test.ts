/**
 * The Appium session a dead lock holder noted is ended only on an allowed URL with a plain id; old lock
 * files without the fields end nothing (issue 18 defect 9).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createStaleSessionEnder, staleSessionUrl } from "../../src/adapters/evidence/stale_session.ts";
import type { LockHolder } from "../../src/adapters/evidence/device_lock.ts";

const APPIUM = "http://10.0.0.5:4723";
const old: LockHolder = { pid: 1, host: "h", operation_id: "o", tool: "t", udid: "u", acquired_at: "x", token: "k" };

test("a loopback or APPIUM_URL host with a plain id gives the DELETE URL; an old lock without the fields gives none", () => {
  assert.equal(staleSessionUrl(old, APPIUM), null);
  assert.deepEqual(staleSessionUrl({ appium_url: "http://127.0.0.1:39/wd/hub/", appium_session_id: "ab-12" }, APPIUM), {
    url: "http://127.0.0.1:39/wd/hub/session/ab-12",
  });
  assert.deepEqual(staleSessionUrl({ appium_url: "http://10.0.0.5:4723", appium_session_id: "x" }, APPIUM), {
    url: "http://10.0.0.5:4723/session/x",
  });
});

test("another host, a non-http scheme, credentials, or an id with / or .. are refused", () => {
  for (
    const [url, id] of [["http://evil.example:80", "a"], ["file:///etc", "a"], ["http://u:p@127.0.0.1:1", "a"], [
      "http://127.0.0.1:1",
      "../x",
    ], ["http://127.0.0.1:1", "a/b"]]
  ) {
    const got = staleSessionUrl({ appium_url: url, appium_session_id: id }, APPIUM);
    assert.ok(got !== null && "refused" in got, `${url} ${id}: ${JSON.stringify(got)}`);
  }
});

test("the ender sends one bounded DELETE and never throws", async () => {
  const sent: Array<{ url: string; timeoutMs: number }> = [];
  const lines: string[] = [];
  const logger = {
    info: (m: string) => void lines.push(m),
    warn: (m: string) => void lines.push(m),
    error: (m: string) => void lines.push(m),
  };
  const end = createStaleSessionEnder({
    http: {
      delete: async (
        url,
        o,
      ) => (sent.push({ url, timeoutMs: o.timeoutMs }), { kind: "failure", reason: "refused", message: "no", durationMs: 1 }),
    },
    logger: logger as never,
    appiumUrl: APPIUM,
  });
  await end({ ...old, appium_url: "http://127.0.0.1:5", appium_session_id: "s1" });
  await end({ ...old, appium_url: "http://evil.example", appium_session_id: "s2" });
  await end(old);
  assert.deepEqual(sent, [{ url: "http://127.0.0.1:5/session/s1", timeoutMs: 5000 }]);
  assert.equal(lines.length, 2);
});
