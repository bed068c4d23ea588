/**
 * Contract tests of issue 16's hands on the simulated 'shop' app: ui_tap's gestures, ui_scroll's four
 * directions, container and until, ui_type_text's append and submit, device_press, app_open_url,
 * app_clear and app_launch's restart; whole envelopes for successes, typed codes for each error, and
 * refused inputs that never reach a device command (the in-process driver's call log stays empty).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { actScreen, callEnvelope as call, evidenceRef, withActServer } from "../support/act_calls.ts";
import { type ActWorld, actWorld } from "../support/act_world.ts";
import { type Connected } from "../support/mcp_client.ts";
import { operationId } from "../support/mcp_fakes.ts";
import { BUILTIN_SCENARIOS } from "../../src/sim/mod.ts";
import { decodePng } from "../../src/png/mod.ts";
import { findMark } from "../png/mark_reader.ts";

const SHOP_SCENARIO = BUILTIN_SCENARIOS["shop"]!;

const SHOP = "com.example.shop";
const id = (name: string) => `${SHOP}:id/${name}`;

async function withShop(body: (c: Connected, world: ActWorld) => Promise<void>): Promise<ActWorld> {
  const world = actWorld({ scenario: "shop" });
  await withActServer(world, (c) => body(c, world));
  return world;
}

/** A success envelope of the n-th operation, its data the act fields around `extra` and the device's screen now. */
function actEnvelope(world: ActWorld, n: number, tool: string, extra: Record<string, unknown>, shot = n) {
  const changed = true;
  return {
    ok: true,
    operation_id: operationId(n),
    tool,
    data: { foreground_package: world.device.foregroundPackage(), settled: true, changed, ...extra, screen: actScreen(world) },
    evidence: evidenceRef(shot, tool),
    error: null,
  };
}

test("ui_tap long_press opens the product's menu and double_tap likes the photo, each on the element (one gesture command, no click)", async () => {
  await withShop(async (c, world) => {
    const pressed = await call(c, "ui_tap", { selector: { text: "Rain jacket" }, gesture: "long_press" });
    assert.equal(world.device.screenId(), "product_menu");
    assert.deepEqual(
      pressed,
      actEnvelope(world, 1, "ui_tap", { target: { text: "Rain jacket" }, element_label: "Rain jacket", gesture: "long_press" }),
    );
    assert.ok(actScreen(world).actions.some((a) => a.selector.text === "Add to wishlist"), "the menu's choices are on the new screen");
    assert.equal(world.calls.filter((n) => n === "longPress").length, 1);
    assert.equal(world.calls.includes("click"), false);

    world.device.openUrl("shop://product/42");
    const liked = await call(c, "ui_tap", { selector: { content_desc: "Canvas sneakers photo" }, gesture: "double_tap" });
    assert.equal(liked.ok, true, JSON.stringify(liked.error));
    assert.equal(world.device.screenId(), "product_42_liked");
    assert.equal(liked.data["gesture"], "double_tap");
    assert.ok((liked.data["screen"] as { texts: string[] }).texts.includes("In your favourites"));
  });
});

test("a refused gesture (swipe) is INVALID_ARGUMENT naming the three accepted, before any driver call", async () => {
  await withShop(async (c, world) => {
    const swipe = await call(c, "ui_tap", { selector: { text: "Rain jacket" }, gesture: "swipe" });
    assert.equal(swipe.error?.code, "INVALID_ARGUMENT");
    assert.match(swipe.error!.message, /'gesture'.*"tap"\|"long_press"\|"double_tap"/);
    assert.equal(world.calls.length, 0, "no session was opened, nothing was sent");
  });
});

test("ui_scroll right with a container scrolls the chip row sideways and leaves the page; the sheet's list scrolls while the page does not", async () => {
  await withShop(async (c, world) => {
    const areas = actScreen(world).scroll_areas;
    assert.deepEqual(areas?.map((a) => a.axis), ["horizontal", undefined], "the summary lists both areas, the chips sideways");
    const chips = await call(c, "ui_scroll", { direction: "right", container: { resource_id: id("chips") } });
    assert.equal(world.device.screenId(), "shop_home_chips");
    assert.deepEqual(chips, actEnvelope(world, 1, "ui_scroll", { direction: "right", scrolled: true, at_end: true }));
    assert.ok(world.calls.includes("scroll right"));
    assert.ok(actScreen(world).actions.some((a) => a.selector.text === "Sale"), "the last chip came into view");
    assert.ok(JSON.stringify(actScreen(world)).includes("Canvas sneakers"), "the page did not move");

    await call(c, "ui_tap", { selector: { content_desc: "Filters" } });
    assert.equal(world.device.screenId(), "filters");
    const sheet = await call(c, "ui_scroll", { direction: "down", container: { text: "Brand" } });
    assert.equal(sheet.ok, true, JSON.stringify(sheet.error));
    assert.equal(world.device.screenId(), "filters_sheet_2", "the sheet's list scrolled (named by an element inside it)");
    assert.ok(actScreen(world).actions.some((a) => a.selector.text === "Discount"));
  });
});

test("ui_scroll left or right without a container scrolls the largest sideways area (the chip row), not the vertical page", async () => {
  await withShop(async (c, world) => {
    const found = await call(c, "ui_scroll", { direction: "right", until: { text: "Sale" } });
    assert.equal(found.ok, true, JSON.stringify(found.error));
    assert.equal(world.device.screenId(), "shop_home_chips");
    assert.deepEqual(found.data["found"], { text: "Sale" });
    assert.deepEqual(world.calls.filter((n) => n.startsWith("scroll")), ["scroll right"], "one swipe, on the chips");
    const back = await call(c, "ui_scroll", { direction: "left" });
    assert.equal(world.device.screenId(), "shop_home", JSON.stringify(back.error));
    const down = await call(c, "ui_scroll", { direction: "down" });
    assert.equal(world.device.screenId(), "shop_home_2", `up and down still take the page: ${JSON.stringify(down.error)}`);
  });
});

test("ui_scroll until finds an item that starts off screen in one call and answers its offered selector", async () => {
  await withShop(async (c, world) => {
    const found = await call(c, "ui_scroll", { direction: "down", until: { text_contains: "aypac" } });
    assert.equal(world.device.screenId(), "shop_home_3");
    const offered = actScreen(world).actions.find((a) => JSON.stringify(a).includes("Daypack"))!.selector;
    assert.notDeepEqual(offered, { text_contains: "aypac" }, "the selector the summary offers, not the one asked with");
    assert.deepEqual(
      found,
      actEnvelope(world, 1, "ui_scroll", { direction: "down", scrolled: true, swipes: 2, at_end: true, found: offered }),
    );
    assert.equal(world.calls.filter((n) => n === "scroll down").length, 2);
    const tapped = await call(c, "ui_tap", { selector: offered });
    assert.equal(tapped.ok, true, "the answered selector goes straight back into ui_tap");
  });
});

test("ui_scroll until an element already on screen swipes nothing; one never shown is UI_ELEMENT_NOT_FOUND saying the end was reached, with evidence", async () => {
  await withShop(async (c, world) => {
    const here = await call(c, "ui_scroll", { direction: "down", until: { text: "Rain jacket" } });
    assert.deepEqual(here.data["swipes"], 0);
    assert.equal(here.data["changed"], false);
    assert.equal(world.calls.some((n) => n.startsWith("scroll")), false);

    const missing = await call(c, "ui_scroll", { direction: "down", until: { text: "Umbrella" } });
    assert.equal(missing.ok, false);
    assert.equal(missing.error?.code, "UI_ELEMENT_NOT_FOUND");
    assert.match(
      missing.error!.message,
      /^\{"text":"Umbrella"\} did not come on screen: the end was reached after 2 swipe\(s\) down\. The screen offers: .*'Daypack photo'/,
    );
    assert.deepEqual(missing.evidence, evidenceRef(2, "ui_scroll"), "a screenshot of where it stopped");
    assert.deepEqual(missing.data, {});
    assert.equal(world.device.screenId(), "shop_home_3");
  });
});

test("ui_scroll refuses a diagonal direction, an until or container with coordinates, a container outside any scroll area or naming several, typed", async () => {
  await withShop(async (c, world) => {
    assert.equal((await call(c, "ui_scroll", { direction: "diagonal" })).error?.code, "INVALID_SCROLL_DIRECTION");
    const point = await call(c, "ui_scroll", { direction: "down", until: { x: 540, y: 1200 } });
    assert.equal(point.error?.code, "INVALID_SELECTOR");
    assert.match(point.error!.message, /'x', 'y'/);
    assert.equal(
      (await call(c, "ui_scroll", { direction: "down", container: { bounds: [0, 0, 10, 10] } })).error?.code,
      "INVALID_SELECTOR",
    );
    assert.equal(world.calls.length, 0, "refused arguments reach no driver");
    const outside = await call(c, "ui_scroll", { direction: "down", container: { content_desc: "Cart" } });
    assert.equal(outside.error?.code, "UI_ELEMENT_NOT_FOUND");
    assert.match(outside.error!.message, /not inside a scrollable area .*scroll_areas/);
    const rows = { resource_id: id("product_row") };
    const several = await call(c, "ui_scroll", { direction: "down", container: rows });
    assert.equal(several.error?.code, "UI_ELEMENT_AMBIGUOUS", "a container naming several elements names no one area");
    const untilSeveral = await call(c, "ui_scroll", { direction: "down", until: rows });
    assert.equal(untilSeveral.error?.code, "UI_ELEMENT_AMBIGUOUS", "an until naming several on screen is refused at once");
    assert.equal(world.calls.some((n) => n.startsWith("scroll")), false);
  });
});

test("ui_type_text with submit: search shows the results only after the IME action; append adds to the field's text", async () => {
  await withShop(async (c, world) => {
    await call(c, "ui_tap", { selector: { content_desc: "Search" } });
    const typed = await call(c, "ui_type_text", { selector: { resource_id: id("search_field") }, text: "boo" });
    assert.equal(world.device.screenId(), "search", "typing alone shows no results");
    assert.equal(typed.ok, true, JSON.stringify(typed.error));
    const appended = await call(c, "ui_type_text", {
      selector: { resource_id: id("search_field") },
      text: "ts",
      append: true,
      submit: "search",
    });
    assert.equal(world.device.screenId(), "search_results");
    assert.match(world.device.hierarchyXml(), /text="boots"/, "append kept what was there");
    assert.deepEqual(
      appended,
      actEnvelope(world, 3, "ui_type_text", {
        target: { resource_id: id("search_field") },
        element_label: "Search products",
        typed_length: 2,
      }),
    );
    assert.deepEqual(world.calls.filter((n) => /Text|editorAction|pressKey/.test(n)), ["replaceText", "appendText", "editorAction search"]);
    assert.equal(
      (await call(c, "ui_type_text", { selector: { resource_id: id("search_field") }, text: "x", submit: "jump" })).error?.code,
      "INVALID_ARGUMENT",
    );
  });
});

test("ui_type_text submit: an IME action the search field does not answer (send, done) shows no results, as on a phone", async () => {
  await withShop(async (c, world) => {
    await call(c, "ui_tap", { selector: { content_desc: "Search" } });
    const field = { resource_id: id("search_field") };
    const sent = await call(c, "ui_type_text", { selector: field, text: "boots", submit: "send" });
    assert.equal(sent.ok, true, JSON.stringify(sent.error));
    assert.equal(world.device.screenId(), "search", "the field's listener answers its own action (search) only");
    assert.equal(JSON.stringify(sent.data["screen"]).includes("results"), false);
    await call(c, "ui_type_text", { selector: field, text: "boots", submit: "done" });
    assert.equal(world.device.screenId(), "search");
    assert.equal((actScreen(world) as { keyboard?: unknown }).keyboard, undefined, "done's default: the keyboard closed");
    await call(c, "ui_type_text", { selector: field, text: "boots", submit: "search" });
    assert.equal(world.device.screenId(), "search_results");
  });
});

test("ui_type_text submit: enter presses KEYCODE_ENTER after typing", async () => {
  await withShop(async (c, world) => {
    await call(c, "ui_tap", { selector: { content_desc: "Search" } });
    const entered = await call(c, "ui_type_text", { selector: { resource_id: id("search_field") }, text: "mug", submit: "enter" });
    assert.equal(entered.ok, true, JSON.stringify(entered.error));
    assert.equal(world.device.screenId(), "search_results");
    assert.ok(world.calls.includes("pressKey enter"));
  });
});

test("device_press: home shows the launcher, app_switch the recents, notifications the shade; a key outside the list (power) is refused before any call", async () => {
  await withShop(async (c, world) => {
    const power = await call(c, "device_press", { key: "power" });
    assert.equal(power.error?.code, "INVALID_ARGUMENT");
    assert.match(power.error!.message, /'key'.*"home"\|"app_switch"\|"enter"\|"delete"\|"notifications"/);
    assert.equal(world.calls.length, 0);

    const home = await call(c, "device_press", { key: "home" });
    assert.equal(world.device.screenId(), "launcher");
    assert.deepEqual(home, actEnvelope(world, 2, "device_press", { key: "home" }, 1));
    assert.equal(home.data["foreground_package"], "com.google.android.apps.nexuslauncher");
    await call(c, "device_press", { key: "app_switch" });
    assert.equal(world.device.screenId(), "@recents");
    await call(c, "device_press", { key: "home" });
    const shade = await call(c, "device_press", { key: "notifications" });
    assert.equal(world.device.screenId(), "@shade");
    assert.ok(JSON.stringify(shade.data["screen"]).includes("Your order has shipped"));
    assert.deepEqual(world.calls.filter((n) => n.startsWith("pressKey") || n === "openNotifications"), [
      "pressKey home",
      "pressKey app_switch",
      "pressKey home",
      "openNotifications",
    ]);
  });
});

test("device_press: delete removes the character before the cursor, enter submits the focused search field (KEYCODE_DEL, KEYCODE_ENTER)", async () => {
  await withShop(async (c, world) => {
    await call(c, "ui_tap", { selector: { content_desc: "Search" } });
    await call(c, "ui_type_text", { selector: { resource_id: id("search_field") }, text: "boots" });
    const deleted = await call(c, "device_press", { key: "delete" });
    assert.deepEqual(deleted, actEnvelope(world, 3, "device_press", { key: "delete" }));
    assert.match(world.device.hierarchyXml(), /text="boot"/);
    assert.equal(world.device.screenId(), "search", "a deleted character submits nothing");
    const entered = await call(c, "device_press", { key: "enter" });
    assert.deepEqual(entered, actEnvelope(world, 4, "device_press", { key: "enter" }));
    assert.equal(world.device.screenId(), "search_results");
    assert.deepEqual(world.calls.filter((n) => n.startsWith("pressKey")), ["pressKey delete", "pressKey enter"]);
  });
});

test("app_open_url opens the page its link names, with evidence; a link nothing handles is APP_NOT_FOUND; a missing package is APP_NOT_FOUND before any session", async () => {
  await withShop(async (c, world) => {
    const product = await call(c, "app_open_url", { url: "shop://product/42" });
    assert.equal(world.device.screenId(), "product_42");
    assert.deepEqual(product, actEnvelope(world, 1, "app_open_url", { url: "shop://product/42" }));
    const checkout = await call(c, "app_open_url", { url: "https://shop.example/checkout?from=mcp&x=%20", package: SHOP });
    assert.equal(checkout.ok, true, JSON.stringify(checkout.error));
    assert.equal(world.device.screenId(), "checkout");
    const nothing = await call(c, "app_open_url", { url: "nowhere://page" });
    assert.equal(nothing.error?.code, "APP_NOT_FOUND");
    assert.match(nothing.error!.message, /handles nowhere:\/\/page/);
    const opens = world.calls.filter((n) => n === "open").length;
    const missing = await call(c, "app_open_url", { url: "shop://product/42", package: "com.example.nothere" });
    assert.equal(missing.error?.code, "APP_NOT_FOUND");
    assert.equal(world.calls.filter((n) => n === "open").length, opens, "no session was opened for it");
    assert.equal((await call(c, "app_open_url", { url: "shop://product/42", package: "x;reboot" })).error?.code, "INVALID_PACKAGE");
  });
});

test("app_open_url refuses file:, javascript:, intent:, content:, data:, a schemeless, spaced, quoted or 3,000-character URL, before any device command", async () => {
  await withShop(async (c, world) => {
    const refused: [string, RegExp][] = [
      ["file:///etc/passwd", /schemes file, content, android.resource, javascript, intent.* are refused/],
      ["javascript:alert(1)", /only URL characters/],
      ["javascript:alert%281%29", /are refused/],
      ["intent://scan/#Intent;scheme=zxing;package=com.google.zxing.client.android;end", /only URL characters/],
      ["intent://scan/#Intent", /are refused/],
      ["INTENT://x", /are refused/],
      ["content://contacts/people/1", /are refused/],
      ["data:text/html,hi", /are refused/],
      ["android-app://com.example.shop/shop/product/42", /are refused/],
      // ContentResolver's third local scheme beside file: and content: (an app's raw resources, read as a file).
      ["android.resource://com.android.settings/raw/notification", /are refused/],
      ["ANDROID.RESOURCE://com.android.settings/drawable/ic_settings", /are refused/],
      ["shop.example/product/42", /scheme:rest/],
      ["https://shop.example/a b", /no spaces/],
      ["https://shop.example/\u0007", /control characters/],
      ["https://shop.example/$(reboot)", /percent-encode/],
      ["https://shop.example/';reboot;'", /percent-encode/],
      ["https://shop.example/%zz", /percent-encode/],
      [`https://shop.example/${"a".repeat(2980)}`, /at most 2048 characters/],
    ];
    for (const [url, message] of refused) {
      const envelope = await call(c, "app_open_url", { url });
      assert.equal(envelope.error?.code, "INVALID_ARGUMENT", url);
      assert.match(envelope.error!.message, message, url);
    }
    assert.equal(world.calls.length, 0, "no refused URL reached the driver");
    assert.equal(world.device.screenId(), "shop_home");
  });
});

test("app_clear stops the app and deletes its data (the next launch is signed out); app_launch restart force-stops first and keeps the data", async () => {
  await withShop(async (c, world) => {
    world.device.openUrl("shop://product/42");
    const restarted = await call(c, "app_launch", { package: SHOP, restart: true });
    assert.equal(restarted.ok, true, JSON.stringify(restarted.error));
    assert.equal(world.device.screenId(), "shop_home", "started again from its first screen, still signed in");
    assert.deepEqual(restarted, actEnvelope(world, 1, "app_launch", { package: SHOP, stopped: true }));
    assert.ok(world.calls.indexOf(`terminateApp ${SHOP}`) < world.calls.indexOf(`activateApp ${SHOP}`));

    const cleared = await call(c, "app_clear", { package: SHOP });
    assert.deepEqual(cleared, actEnvelope(world, 2, "app_clear", { package: SHOP }));
    assert.notEqual(world.device.foregroundPackage(), SHOP, "the app was stopped");
    const launched = await call(c, "app_launch", { package: SHOP });
    assert.equal(world.device.screenId(), "shop_login", "its data is gone: signed out");
    assert.equal(launched.data["stopped"], undefined, "stopped is said only with restart");

    const opens = world.calls.filter((n) => n === "open").length;
    assert.equal((await call(c, "app_clear", { package: "com.example.nothere" })).error?.code, "APP_NOT_FOUND");
    assert.equal((await call(c, "app_clear", { package: "com.x; rm -rf /" })).error?.code, "INVALID_PACKAGE");
    assert.equal(world.calls.filter((n) => n === "open").length, opens, "neither reached a session");
  });
});

test("app_clear and app_launch restart refuse the helpers the harness acts through (UiAutomator2 server, Appium Settings), before any session", async () => {
  // Installed as on every device Appium drives: clearing or force-stopping the server kills the session the act runs in.
  const helpers = ["io.appium.uiautomator2.server", "io.appium.uiautomator2.server.test", "io.appium.settings"];
  const scenario = { ...SHOP_SCENARIO, packages: [...SHOP_SCENARIO.packages, ...helpers.map((name) => ({ name }))] };
  const world = actWorld({ scenario });
  await withActServer(world, async (c) => {
    for (const pkg of helpers) {
      for (const [tool, args] of [["app_clear", { package: pkg }], ["app_launch", { package: pkg, restart: true }]] as const) {
        const refused = await call(c, tool, args);
        assert.equal(refused.error?.code, "INVALID_PACKAGE", `${tool} ${pkg}: ${JSON.stringify(refused.error)}`);
        assert.match(refused.error!.message, /the harness acts through/);
      }
    }
    assert.equal(world.calls.length, 0, "no session was opened, nothing was sent");
    assert.equal((await call(c, "app_launch", { package: SHOP, restart: true })).ok, true, "the app under test still restarts");
  });
});

test("ui_type_text append on a password field that holds text is refused before typing: Android shows it only as bullets, which the driver would write back in", async () => {
  const world = actWorld({ scenario: "login" });
  await withActServer(world, async (c) => {
    const password = { resource_id: "com.example.shop:id/password" };
    const empty = await call(c, "ui_type_text", { selector: password, text: "hunter", append: true });
    assert.equal(empty.ok, true, `an empty password field (its hint showing) takes append as typing: ${JSON.stringify(empty.error)}`);
    const typed = world.calls.length;
    const more = await call(c, "ui_type_text", { selector: password, text: "2", append: true });
    assert.equal(more.error?.code, "INVALID_ARGUMENT", JSON.stringify(more.error));
    assert.match(more.error!.message, /password field/);
    assert.doesNotMatch(JSON.stringify(more), /hunter/, "the answer does not carry the password");
    assert.equal(world.calls.slice(typed).some((n) => n === "appendText" || n === "replaceText"), false, "nothing was typed");
    const whole = await call(c, "ui_type_text", { selector: password, text: "hunter2" });
    assert.equal(whole.ok, true, "the whole password without append still types");
  });
});

test("app_clear is published as destructive, device_press and app_open_url as acts", async () => {
  await withShop(async (c) => {
    const { tools } = await c.client.listTools();
    const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
    assert.deepEqual(hints("app_clear"), { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    assert.deepEqual(hints("device_press"), { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    assert.deepEqual(hints("app_open_url"), { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
  });
});

test("each refused input the issue lists answers its whole refusal envelope (typed code, the argument's path) and reaches no driver", async () => {
  await withShop(async (c, world) => {
    const schema = (accepts: string) => `Send the value the tool's input schema describes (it accepts ${accepts}).`;
    const urlShape = "send scheme:rest (e.g. https://… or myapp://…) with only URL characters: no spaces or control characters, " +
      "percent-encode quotes, $ ; ( ) * and anything else";
    const schemes =
      "the schemes file, content, android.resource, javascript, intent, android-app, data, about, vbscript are refused; open an http(s) or app link";
    const url = (message: string, issue: string) => ({
      code: "INVALID_ARGUMENT",
      message: `Invalid 'url' for app_open_url: ${message}. ${schema("url, package, session_id, device")}`,
      details: { path: ["url"], issue },
    });
    const refused: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ["ui_tap", { selector: { text: "Rain jacket" }, gesture: "swipe" }, {
        code: "INVALID_ARGUMENT",
        message: `Invalid 'gesture' for ui_tap: Invalid option: expected one of "tap"|"long_press"|"double_tap". ${
          schema("selector, gesture, session_id, device")
        }`,
        details: { path: ["gesture"], issue: "invalid_value" },
      }],
      ["ui_scroll", { direction: "diagonal" }, {
        code: "INVALID_SCROLL_DIRECTION",
        message: `Invalid 'direction' for ui_scroll: Invalid option: expected one of "up"|"down"|"left"|"right". ${
          schema("direction, container, until, session_id, device")
        }`,
        details: { path: ["direction"], issue: "invalid_value" },
      }],
      ["ui_scroll", { direction: "down", until: { x: 540, y: 1200 } }, {
        code: "INVALID_SELECTOR",
        message: "Unknown arguments 'x', 'y' for 'until'; a selector takes one of resource_id, text, content_desc, text_contains, " +
          "input_hint, role, with an optional within and index (coordinates are refused), as ui_get_tree offers it.",
        details: { path: ["until"], issue: "unrecognized_keys" },
      }],
      ["app_open_url", { url: "file:///etc/passwd" }, url(schemes, "custom")],
      ["app_open_url", { url: "javascript:alert(1)" }, url(urlShape, "invalid_format")],
      ["app_open_url", { url: "intent://scan/#Intent;scheme=zxing;end" }, url(urlShape, "invalid_format")],
      ["app_open_url", { url: "intent://scan/" }, url(schemes, "custom")],
      ["app_open_url", { url: `https://shop.example/${"a".repeat(2979)}` }, url("a URL is at most 2048 characters", "too_big")],
      ["device_press", { key: "power" }, {
        code: "INVALID_ARGUMENT",
        message: `Invalid 'key' for device_press: Invalid option: expected one of "home"|"app_switch"|"enter"|"delete"|"notifications". ${
          schema("key, session_id, device")
        }`,
        details: { path: ["key"], issue: "invalid_value" },
      }],
    ];
    let n = 0;
    for (const [tool, args, error] of refused) {
      assert.deepEqual(
        await call(c, tool, args),
        { ok: false, operation_id: operationId(++n), tool, data: {}, evidence: null, error },
        tool,
      );
    }
    assert.equal([...refused[7]![1]["url"] as string].length, 3000, "the long URL is 3,000 characters");
    assert.deepEqual(world.calls, [], "no session was opened and no command was sent");
    assert.equal(world.device.screenId(), "shop_home");
  });
});

test("ui_scroll's until is met only by an element in the clear: one the sheet covers is swiped for, and said covered at the end (R42)", async () => {
  await withShop(async (c, world) => {
    await call(c, "ui_tap", { selector: { content_desc: "Filters" } });
    const down = await call(c, "ui_scroll", { direction: "down", until: { text: "Running shorts" } });
    assert.notEqual(
      (down.data as { swipes?: number } | undefined)?.swipes,
      0,
      `not found at once under the sheet: ${JSON.stringify(down.data)}`,
    );
    // The page swipe carried the row past the sheet's top: the message says it was there, under 'Size', at the start.
    assert.equal(down.error?.code, "UI_ELEMENT_NOT_FOUND", JSON.stringify(down));
    assert.match(
      down.error!.message,
      /^\{"text":"Running shorts"\} was on screen under 'Size' \{"text":"Size"\} before the first swipe and went past it: the end was reached after 1 swipe\(s\) down\. /,
    );
    assert.match(down.error!.message, /Close what covers it, then scroll back up\.$/);
    await call(c, "ui_scroll", { direction: "up" });
    assert.equal(world.device.screenId(), "filters");
    const up = await call(c, "ui_scroll", { direction: "up", until: { text: "Running shorts" } });
    assert.equal(up.error?.code, "UI_ELEMENT_NOT_FOUND", JSON.stringify(up));
    assert.match(
      up.error!.message,
      /^\{"text":"Running shorts"\} is on screen but 'Size' \{"text":"Size"\} is drawn over it where a tap lands/,
    );
    assert.deepEqual((up.error?.details?.["covered_by"] as { label?: string } | undefined)?.label, "Size");
  });
});

test("ui_tap refuses an element the filter sheet covers where a tap lands (UI_ELEMENT_NOT_FOUND naming the sheet's option, with a screenshot); nothing is tapped (R42)", async () => {
  await withShop(async (c, world) => {
    await call(c, "ui_tap", { selector: { content_desc: "Filters" } });
    assert.equal(world.device.screenId(), "filters");
    const tree = await call(c, "ui_get_tree", {});
    const entry = (tree.data as { actions: { selector: { text?: string }; covered_by?: string }[] }).actions
      .find((a) => a.selector.text === "Running shorts");
    assert.ok(entry?.covered_by, `the summary says the row is covered before any tap: ${JSON.stringify(entry)}`);
    const calls = world.calls.length;
    const covered = await call(c, "ui_tap", { selector: { text: "Running shorts" } });
    assert.equal(covered.ok, false);
    assert.equal(covered.error?.code, "UI_ELEMENT_NOT_FOUND");
    assert.match(
      covered.error?.message ?? "",
      /^\{"text":"Running shorts"\} \('Running shorts.*'\) is covered where a tap lands \(its centre\) by '.+'/,
    );
    assert.match(
      covered.error?.message ?? "",
      /nothing was tapped\. Scroll it into the clear \(ui_scroll\), or close what covers it, then retry\.$/,
    );
    assert.equal(
      (covered.error?.details?.["covered_by"] as { label?: string } | undefined)?.label,
      entry.covered_by,
      "the tap names the cover the summary said",
    );
    assert.notEqual(covered.evidence, null, "the moment of the refusal is kept as evidence");
    assert.equal(world.device.screenId(), "filters", "nothing changed");
    assert.deepEqual(world.calls.slice(calls).filter((call) => /^(click|long|double)/.test(call)), [], "no tap reached the device");
    // What the sheet shows is tapped as before.
    const apply = await call(c, "ui_tap", { selector: { text: "Apply" } });
    assert.equal(apply.ok, true, JSON.stringify(apply.error));
  });
});

test("ui_screenshot annotate on the filter sheet: no mark for the row the sheet covers where a tap lands, every other action marked", async () => {
  await withShop(async (c) => {
    await call(c, "ui_tap", { selector: { content_desc: "Filters" } });
    const result = await c.client.callTool({ name: "ui_screenshot", arguments: { annotate: true } });
    const actions = (result.structuredContent as { data: { actions: { bounds: number[]; covered_by?: string }[] } }).data.actions;
    const covered = actions.flatMap((a, n) => a.covered_by === undefined ? [] : [n]);
    // The Leather wallet row, whose centre lies on the sheet between its options (the sheet takes that touch), and the
    // Running shorts row, under 'Size': neither gets a mark, which would sit on the sheet.
    assert.deepEqual(covered.map((n) => actions[n]!.covered_by), ["Filters", "Size"]);
    const image = decodePng(Uint8Array.from(Buffer.from((result.content as { data?: string }[])[1]!.data!, "base64")));
    const whole = { left: 0, top: 0, right: image.width, bottom: image.height };
    const r = image.width / 1080;
    actions.forEach((action, n) => {
      const [l, t, w, h] = action.bounds as [number, number, number, number];
      const box = { left: Math.floor(l * r), top: Math.floor(t * r), right: Math.ceil((l + w) * r), bottom: Math.ceil((t + h) * r) };
      if (covered.includes(n)) assert.equal(findMark(image, n, whole), null, `no mark ${n} anywhere`);
      else assert.ok(findMark(image, n, box), `mark ${n} on its action`);
    });
  });
});
