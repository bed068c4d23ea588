import assert from "node:assert/strict";
import { test } from "node:test";
import { appiumTarget, basicAuthorization, shownAppiumUrl } from "../../src/appium_url.ts";

test("an Appium URL is said as scheme, host and port only: no credentials, base path, query or fragment", () => {
  assert.equal(shownAppiumUrl("https://alice:k%40y@hub.example.com:8443/wd/hub?x=1#f"), "https://hub.example.com:8443");
  assert.equal(shownAppiumUrl("http://user:key@[::1]:4723"), "http://[::1]:4723");
  assert.equal(shownAppiumUrl("http://127.0.0.1:4723"), "http://127.0.0.1:4723");
  assert.equal(shownAppiumUrl("not a url user:key"), "<the Appium URL, which does not parse>");
});

test("the target keeps the path and hands the decoded credentials apart", () => {
  assert.deepEqual(appiumTarget("https://alice:k%40y@hub.example.com/wd/hub/"), {
    endpoint: "https://hub.example.com/wd/hub",
    protocol: "https",
    hostname: "hub.example.com",
    port: 443,
    path: "/wd/hub/",
    credentials: { user: "alice", key: "k@y" },
  });
  assert.deepEqual(appiumTarget("http://[::1]:4723"), {
    endpoint: "http://[::1]:4723",
    protocol: "http",
    hostname: "::1",
    port: 4723,
    path: "/",
  });
  assert.equal(basicAuthorization({ user: "alice", key: "k@y" }), `Basic ${Buffer.from("alice:k@y").toString("base64")}`);
});
