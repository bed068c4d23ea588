/**
 * No glob character of an allowed URL reaches the device's shell unquoted (issue 25 item 9, reliability R45).
 * Through the REAL Appium 3.8 + UiAutomator2 driver (whose `mobile: deepLink` escapes only `&` on its `am start`
 * line) and the simulated device, whose shell now globs unquoted words against its files as sh does: with a file
 * `/https:/shop.example/product/42` on the device (a directory the attack planted), `https://shop.example/product/4?`
 * was rewritten to that path before (APP_NOT_FOUND: it is no web URL). Now the harness opens links through its own
 * adb with the URL quoted: the browser opens the URL as sent, and `?`, `[`, `]`, `&` arrive as they were.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startSimDevice } from "../../src/sim/mod.ts";
import { type BatteryTarget, callTool, type Served, serveOn } from "../support/act_battery.ts";
import { type RunningAppium, startAppium } from "../support/appium.ts";

let appium: RunningAppium;
let target: BatteryTarget;
let served: Served;

before(async () => {
  appium = await startAppium();
  const sim = await startSimDevice({ scenario: "shop" });
  sim.device.files.set("/https:/shop.example/product/42", new Uint8Array([1]));
  target = { sim, appiumUrl: appium.url };
  served = await serveOn(target);
});

after(async () => {
  await served?.close();
  served?.home.remove();
  await target?.sim.stop();
  await appium?.stop();
});

test(
  "a URL with ? [ ] & reaches the device as sent through a UI session on the real Appium driver (R45)",
  { timeout: 240_000 },
  async () => {
    const s = served.server;
    const session = await callTool(s, "ui_session_open");
    assert.equal(session.ok, true, JSON.stringify(session.error));
    const id = session.data["session_id"];
    for (const url of ["https://shop.example/product/4?", "https://shop.example/search?q=[a]&page=?"]) {
      const opened = await callTool(s, "app_open_url", { url, session_id: id });
      assert.equal(opened.ok, true, `${url}: ${JSON.stringify(opened.error)}\n${appium.output().split("\n").slice(-15).join("\n")}`);
      assert.equal(opened.data["foreground_package"], "com.android.chrome", url);
      const lines = target.sim.device.log.slice().filter((e) => e.source === "adb" && e.command.includes("android.intent.action.VIEW"));
      assert.match(lines.at(-1)?.command ?? "", new RegExp(`-d '${url.replace(/[?[\]*.&]/g, "\\$&")}'`), "the URL went as one quoted word");
    }
    await callTool(s, "ui_session_close", { session_id: id });
  },
);
