/**
 * Contract tests of the real MCP server over the SDK's in-memory transport with fake ports: whole
 * envelopes for the success and every error path of the four observe tools, the audit line, the lock.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createVirtualClock } from "../support/virtual_clock.ts";
import { HarnessError } from "../../src/errors.ts";
import { createHarnessServer } from "../../src/mcp/server.ts";
import { decodePng, screenFingerprint } from "../../src/png/mod.ts";
import { parseDump, summarize } from "../../src/screen/mod.ts";
import { type Connected, connectInMemory, envelopeOf } from "../support/mcp_client.ts";
import { findMark } from "../png/mark_reader.ts";
import { makePng } from "../png/png_samples.ts";
import { FAKE_PNG, FAKE_STATUS, FAKE_UDID, FAKE_XML, type FakeWorld, fakeWorld, operationId } from "../support/mcp_fakes.ts";
import { ARGUMENT_FREE_OBSERVE_TOOLS } from "../support/observe_tools.ts";

async function withServer(world: FakeWorld, body: (c: Connected) => Promise<void>): Promise<void> {
  const connected = await connectInMemory(createHarnessServer(world.deps));
  try {
    await body(connected);
  } finally {
    await connected.close();
  }
}

const call = (c: Connected, name: string, args: Record<string, unknown> = {}) => c.client.callTool({ name, arguments: args });

test("device_status answers the whole status in the success envelope and writes one audit line", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    const envelope = envelopeOf(await call(c, "device_status"));
    assert.deepEqual(envelope, {
      ok: true,
      operation_id: operationId(1),
      tool: "device_status",
      data: { ...FAKE_STATUS, devices: [{ udid: FAKE_STATUS.udid, model: FAKE_STATUS.model }], default_device: FAKE_STATUS.udid },
      evidence: null,
      error: null,
    });
  });
  assert.equal(world.audit.length, 1);
  assert.deepEqual({ ...world.audit[0], ts: "", duration_ms: 0 }, {
    ts: "",
    operation_id: operationId(1),
    tool: "device_status",
    arguments: {},
    outcome: "ok",
    evidence_id: null,
    duration_ms: 0,
  });
  assert.deepEqual(world.observer.calls, ["resolveDevice", "status", "devices"]);
  assert.equal(world.lock.held.size, 0);
});

test("device_status says simulated only for the simulated device", async () => {
  const world = fakeWorld();
  world.observer.behaviour.status = async () => ({ ...FAKE_STATUS, simulated: true });
  await withServer(world, async (c) => {
    assert.equal(envelopeOf(await call(c, "device_status")).data["simulated"], true);
    world.observer.behaviour.status = async () => ({ ...FAKE_STATUS, simulated: false });
    assert.equal("simulated" in envelopeOf(await call(c, "device_status")).data, false);
  });
});

test("ui_get_tree answers the screen summary, and the raw XML only when include_raw is true", async () => {
  const world = fakeWorld();
  const summary = summarize(parseDump(FAKE_XML), {
    width: 1080,
    height: 2400,
    density: 420,
    keyboard: { open: false },
    foregroundPackage: "com.android.settings",
  });
  await withServer(world, async (c) => {
    assert.deepEqual(envelopeOf(await call(c, "ui_get_tree")), {
      ok: true,
      operation_id: operationId(1),
      tool: "ui_get_tree",
      data: { ...summary },
      evidence: null,
      error: null,
    });
    assert.deepEqual(envelopeOf(await call(c, "ui_get_tree", { include_raw: true })), {
      ok: true,
      operation_id: operationId(2),
      tool: "ui_get_tree",
      data: { ...summary, raw: FAKE_XML },
      evidence: null,
      error: null,
    });
    assert.equal("raw" in envelopeOf(await call(c, "ui_get_tree", { include_raw: false })).data, false);
  });
});

test("ui_get_tree names the scroll areas of a screen with a sideways chip row over a scrolling page, for ui_scroll.container", async () => {
  const node = (attributes: string, bounds: string, children = "") =>
    `<node index="0" ${attributes} package="com.example.shop" checkable="false" checked="false" enabled="true" ` +
    `focusable="false" focused="false" long-clickable="false" password="false" selected="false" bounds="${bounds}"` +
    (children === "" ? " />" : `>${children}</node>`);
  const chip = (text: string, bounds: string) =>
    node(`text="${text}" resource-id="" class="android.widget.Button" content-desc="" clickable="true" scrollable="false"`, bounds);
  const page = `text="" resource-id="com.example.shop:id/page" class="androidx.recyclerview.widget.RecyclerView" content-desc=""`;
  const chips = `text="" resource-id="com.example.shop:id/chips" class="android.widget.HorizontalScrollView" content-desc="Filters"`;
  const xml = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
    node(
      `${page} clickable="false" scrollable="true"`,
      "[0,0][1080,2400]",
      node(
        `${chips} clickable="false" scrollable="true"`,
        "[0,200][1080,320]",
        chip("Shoes", "[0,200][300,320]") + chip("Bags", "[300,200][600,320]"),
      ) +
        chip("Checkout", "[0,2200][1080,2400]"),
    ) + `</hierarchy>`;
  const world = fakeWorld();
  const screen = { width: 1080, height: 2400, density: 420 };
  world.observer.behaviour.tree = async () => ({ xml, screen, keyboard: { open: false }, foregroundPackage: "com.example.shop" });
  await withServer(world, async (c) => {
    assert.deepEqual(envelopeOf(await call(c, "ui_get_tree")), {
      ok: true,
      operation_id: operationId(1),
      tool: "ui_get_tree",
      evidence: null,
      error: null,
      data: {
        foreground_package: "com.example.shop",
        texts: [],
        actions: [
          { selector: { text: "Shoes" }, bounds: [0, 200, 300, 120] },
          { selector: { text: "Bags" }, bounds: [300, 200, 300, 120] },
          { selector: { text: "Checkout" }, bounds: [0, 2200, 1080, 200] },
        ],
        can_scroll: true,
        scroll_areas: [{ selector: { resource_id: "page" } }, { selector: { resource_id: "chips" }, axis: "horizontal", label: "Filters" }],
      },
    });
  });
});

test("ui_get_tree: a failed dump is UI_TREE_UNAVAILABLE, an unparsable one too", async () => {
  const world = fakeWorld();
  world.observer.behaviour.tree = async () => {
    throw new HarnessError("UI_TREE_UNAVAILABLE", "uiautomator dump failed: null root node, 3 times. Retry when the screen is idle.");
  };
  await withServer(world, async (c) => {
    assert.deepEqual(envelopeOf(await call(c, "ui_get_tree")), {
      ok: false,
      operation_id: operationId(1),
      tool: "ui_get_tree",
      data: {},
      evidence: null,
      error: { code: "UI_TREE_UNAVAILABLE", message: "uiautomator dump failed: null root node, 3 times. Retry when the screen is idle." },
    });
    world.observer.behaviour.tree = async () => ({
      xml: '<hierarchy rotation="0"><node',
      screen: { width: 1, height: 1, density: 160 },
      keyboard: { open: false },
      foregroundPackage: "x.y",
    });
    const truncated = envelopeOf(await call(c, "ui_get_tree"));
    assert.equal(truncated.ok, false);
    assert.equal(truncated.error?.code, "UI_TREE_UNAVAILABLE");
  });
  assert.deepEqual(world.audit.map((a) => a.outcome), ["UI_TREE_UNAVAILABLE", "UI_TREE_UNAVAILABLE"]);
});

test("ui_screenshot saves evidence and answers size, fingerprint, a downscaled image and a resource link", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    const result = await call(c, "ui_screenshot");
    const id = "20261129-231622-282674-ui-screenshot.png";
    assert.deepEqual(envelopeOf(result), {
      ok: true,
      operation_id: operationId(1),
      tool: "ui_screenshot",
      data: { width: 4, height: 2, fingerprint: screenFingerprint(FAKE_PNG) },
      evidence: { artifact_id: id, path: `/artifacts/${id}`, uri: `artifact://${id}` },
      error: null,
    });
    const content = result.content as { type: string; mimeType?: string; data?: string; uri?: string; name?: string }[];
    assert.deepEqual(content.map((c) => c.type), ["text", "image", "resource_link"]);
    assert.match(content[1]!.mimeType!, /^image\/(png|jpeg)$/);
    assert.ok(Buffer.from(content[1]!.data!, "base64").length > 0);
    assert.equal(content[2]!.uri, `artifact://${id}`);
    assert.equal(content[2]!.name, id);
    assert.deepEqual(world.evidence.saved.map((s) => s.bytes), [FAKE_PNG]);
    assert.equal(world.audit[0]!.evidence_id, id);
  });
});

test("ui_screenshot: a one-colour or unwritable capture is EVIDENCE_WRITE_FAILED with no evidence", async () => {
  const world = fakeWorld();
  const message =
    "The screenshot is one flat colour (#000000): the device's graphics stack shows nothing. Restart the emulator with a working GPU mode.";
  world.evidence.failNext = new HarnessError("EVIDENCE_WRITE_FAILED", message);
  await withServer(world, async (c) => {
    assert.deepEqual(envelopeOf(await call(c, "ui_screenshot")), {
      ok: false,
      operation_id: operationId(1),
      tool: "ui_screenshot",
      data: {},
      evidence: null,
      error: { code: "EVIDENCE_WRITE_FAILED", message },
    });
    world.observer.behaviour.screenshot = async () => new TextEncoder().encode("error: closed");
    const notPng = envelopeOf(await call(c, "ui_screenshot"));
    assert.equal(notPng.error?.code, "EVIDENCE_WRITE_FAILED");
    assert.match(notPng.error!.message, /not a PNG/);
  });
});

test("ui_screenshot annotate: the summary's actions in data, their numbers on the model image, the evidence PNG as captured", async () => {
  const world = fakeWorld();
  const screen = makePng(1080, 2400, (_x, y) => (y < 1200 ? [250, 250, 250, 255] : [230, 232, 240, 255]));
  world.observer.behaviour.screenshot = async () => screen;
  const { actions } = summarize(parseDump(FAKE_XML), {
    width: 1080,
    height: 2400,
    density: 420,
    keyboard: { open: false },
    foregroundPackage: "com.android.settings",
  });
  assert.ok(actions.length >= 2);
  await withServer(world, async (c) => {
    const result = await call(c, "ui_screenshot", { annotate: true });
    const id = "20261129-231622-282674-ui-screenshot.png";
    assert.deepEqual(envelopeOf(result), {
      ok: true,
      operation_id: operationId(1),
      tool: "ui_screenshot",
      // Below the top 150 rows (1/16), rows of 281 px: three light, one with the edge at y=1200 (245), four darker (232).
      data: { width: 1080, height: 2400, fingerprint: "fa".repeat(15) + "f5".repeat(5) + "e8".repeat(20), actions },
      evidence: { artifact_id: id, path: `/artifacts/${id}`, uri: `artifact://${id}` },
      error: null,
    });
    assert.deepEqual(world.observer.calls, ["resolveDevice", "captureTree", "screenshot"], "the summary is read before the pixels");
    assert.deepEqual(world.evidence.saved.map((s) => s.bytes), [screen], "the evidence PNG is the capture, without marks");
    const content = result.content as { type: string; data?: string; description?: string }[];
    assert.deepEqual(content.map((c) => c.type), ["text", "image", "resource_link"]);
    assert.equal(content[2]!.description, "Full-resolution screenshot, 1080x2400 (without marks)");
    const image = decodePng(Uint8Array.from(Buffer.from(content[1]!.data!, "base64")));
    const r = image.width / 1080;
    actions.forEach((action, number) => {
      const [l, t, w, h] = action.bounds;
      const region = { left: Math.floor(l * r), top: Math.floor(t * r), right: Math.ceil((l + w) * r), bottom: Math.ceil((t + h) * r) };
      assert.ok(findMark(image, number, region), `mark ${number} on ${JSON.stringify(action.selector)}`);
    });
    const plain = await call(c, "ui_screenshot", { annotate: false });
    assert.deepEqual(
      envelopeOf(plain).data,
      { width: 1080, height: 2400, fingerprint: "fa".repeat(15) + "f5".repeat(5) + "e8".repeat(20) },
      "no actions without annotate",
    );
    const plainImage = decodePng(Uint8Array.from(Buffer.from((plain.content as { data?: string }[])[1]!.data!, "base64")));
    assert.equal(findMark(plainImage, 0, { left: 0, top: 0, right: plainImage.width, bottom: plainImage.height }), null);
  });
});

test("ui_screenshot annotate: an unreadable screen is UI_TREE_UNAVAILABLE before any screenshot is taken", async () => {
  const world = fakeWorld();
  world.observer.behaviour.tree = async () => {
    throw new HarnessError(
      "UI_TREE_UNAVAILABLE",
      "uiautomator dump failed: could not get idle state, 3 times. Retry when the screen is idle.",
    );
  };
  await withServer(world, async (c) => {
    assert.deepEqual(envelopeOf(await call(c, "ui_screenshot", { annotate: true })), {
      ok: false,
      operation_id: operationId(1),
      tool: "ui_screenshot",
      data: {},
      evidence: null,
      error: {
        code: "UI_TREE_UNAVAILABLE",
        message: "uiautomator dump failed: could not get idle state, 3 times. Retry when the screen is idle.",
      },
    });
    assert.equal(world.observer.calls.includes("screenshot"), false);
    assert.deepEqual(world.evidence.saved, []);
    const refused = envelopeOf(await call(c, "ui_screenshot", { annotate: "yes" }));
    assert.equal(refused.error?.code, "INVALID_ARGUMENT");
  });
});

test("app_list answers sorted packages; filter and include_system reach the device", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    assert.deepEqual(envelopeOf(await call(c, "app_list")), {
      ok: true,
      operation_id: operationId(1),
      tool: "app_list",
      data: { packages: ["com.example.login", "com.example.notes"], count: 2, include_system: false },
      evidence: null,
      error: null,
    });
    const filtered = envelopeOf(await call(c, "app_list", { filter: "settings", include_system: true }));
    assert.deepEqual(filtered.data, { packages: ["com.android.settings"], count: 1, include_system: true });
  });
  assert.deepEqual(world.observer.calls.filter((x) => x.startsWith("listPackages")), [
    `listPackages {"includeSystem":false}`,
    `listPackages {"filter":"settings","includeSystem":true}`,
  ]);
});

for (const tool of ARGUMENT_FREE_OBSERVE_TOOLS) {
  test(`${tool}: no device is EMULATOR_UNAVAILABLE, before any lock is taken`, async () => {
    const world = fakeWorld();
    const message = "No Android device is online: adb lists 0 devices. Start an emulator or connect a device, or set ANDROID_UDID.";
    world.observer.behaviour.resolve = async () => {
      throw new HarnessError("EMULATOR_UNAVAILABLE", message);
    };
    await withServer(world, async (c) => {
      assert.deepEqual(envelopeOf(await call(c, tool)), {
        ok: false,
        operation_id: operationId(1),
        tool,
        data: {},
        evidence: null,
        error: { code: "EMULATOR_UNAVAILABLE", message },
      });
    });
    assert.equal(world.lock.acquisitions, 0);
    assert.equal(world.audit[0]!.outcome, "EMULATOR_UNAVAILABLE");
  });

  test(`${tool}: a device held by another operation is EMULATOR_BUSY at once, nothing read`, async () => {
    const world = fakeWorld();
    world.lock.held.add(`${world.observer.adbServer} ${FAKE_UDID}`);
    await withServer(world, async (c) => {
      const envelope = envelopeOf(await call(c, tool));
      assert.deepEqual(envelope, {
        ok: false,
        operation_id: operationId(1),
        tool,
        data: {},
        evidence: null,
        error: {
          code: "EMULATOR_BUSY",
          message: `Device ${FAKE_UDID} is busy with another operation; retry when it finishes.`,
          details: { udid: FAKE_UDID },
        },
      });
    });
    assert.deepEqual(world.observer.calls, ["resolveDevice"]);
  });

  test(`${tool}: an unknown argument is INVALID_ARGUMENT, the device is not touched`, async () => {
    const world = fakeWorld();
    await withServer(world, async (c) => {
      const envelope = envelopeOf(await call(c, tool, { x: 10, y: 20 }));
      assert.equal(envelope.ok, false);
      assert.equal(envelope.error?.code, "INVALID_ARGUMENT");
      assert.match(envelope.error!.message, /Unknown arguments 'x', 'y'/);
      assert.deepEqual(envelope.data, {});
    });
    assert.deepEqual(world.observer.calls, []);
    assert.deepEqual(world.audit.map((a) => [a.outcome, a.arguments]), [["INVALID_ARGUMENT", { x: 10, y: 20 }]]);
  });

  test(`${tool}: a hung device call is OPERATION_TIMEOUT, its work aborted and the lock released (R18)`, async () => {
    // The virtual clock: the device call is handed the whole budget, exactly, whatever the machine's load.
    const world = fakeWorld({ actionTimeoutMs: 100, clock: createVirtualClock() });
    let seenSignal: AbortSignal | undefined;
    const hang = (signal?: AbortSignal) => {
      seenSignal = signal;
      return new Promise<never>(() => {});
    };
    world.observer.behaviour.status = () => hang(world.observer.lastWait?.signal);
    world.observer.behaviour.tree = () => hang(world.observer.lastWait?.signal);
    world.observer.behaviour.screenshot = (wait) => hang(wait.signal);
    world.observer.behaviour.packages = () => hang(world.observer.lastWait?.signal);
    await withServer(world, async (c) => {
      assert.deepEqual(envelopeOf(await call(c, tool)), {
        ok: false,
        operation_id: operationId(1),
        tool,
        data: {},
        evidence: null,
        error: {
          code: "OPERATION_TIMEOUT",
          message:
            `${tool} did not finish within 0.1 s (ANDROID_MCP_ACTION_TIMEOUT) and was cancelled; the device lock was released. Retry, or raise the limit if the device is slow.`,
          details: { timeout_s: 0.1 },
        },
      });
    });
    assert.equal(seenSignal?.aborted, true);
    assert.equal(world.lock.held.size, 0);
    assert.equal(world.lock.releases, 1);
    assert.equal(world.observer.lastWait!.timeoutMs, 100);
  });

  test(`${tool}: a foreign fault is INTERNAL_ERROR without a stack trace`, async () => {
    const world = fakeWorld();
    const boom = async (): Promise<never> => {
      throw new TypeError("Cannot read properties of undefined (reading 'width')");
    };
    Object.assign(world.observer.behaviour, { status: boom, tree: boom, screenshot: boom, packages: boom });
    await withServer(world, async (c) => {
      const envelope = envelopeOf(await call(c, tool));
      assert.equal(envelope.error?.code, "INTERNAL_ERROR");
      assert.doesNotMatch(JSON.stringify(envelope), /\bat .*\.js:\d+/);
      assert.match(envelope.error!.message, /reading 'width'/);
    });
    assert.equal(world.lock.held.size, 0);
  });
}

test("wrong argument types are refused with the argument named", async () => {
  const world = fakeWorld();
  await withServer(world, async (c) => {
    const tree = envelopeOf(await call(c, "ui_get_tree", { include_raw: "yes" }));
    assert.equal(tree.error?.code, "INVALID_ARGUMENT");
    assert.match(tree.error!.message, /'include_raw'/);
    const apps = envelopeOf(await call(c, "app_list", { filter: "a; reboot" }));
    assert.equal(apps.error?.code, "INVALID_ARGUMENT");
    assert.match(apps.error!.message, /'filter'/);
  });
  assert.deepEqual(world.observer.calls, []);
});

test("two concurrent operations on one device: exactly one gets EMULATOR_BUSY (R15)", async () => {
  const world = fakeWorld();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  world.observer.behaviour.status = async () => {
    await gate;
    return { ...FAKE_STATUS };
  };
  await withServer(world, async (c) => {
    const first = call(c, "device_status");
    while (world.lock.held.size === 0) await new Promise((r) => setTimeout(r, 1));
    const second = envelopeOf(await call(c, "app_list"));
    release();
    assert.equal(envelopeOf(await first).ok, true);
    assert.equal(second.error?.code, "EMULATOR_BUSY");
  });
});

test("a call the client cancels stops its device work, releases the lock and is audited", async () => {
  const world = fakeWorld();
  let seen: AbortSignal | undefined;
  world.observer.behaviour.tree = () => {
    seen = world.observer.lastWait?.signal;
    return new Promise<never>(() => {});
  };
  await withServer(world, async (c) => {
    const controller = new AbortController();
    const pending = c.client.callTool({ name: "ui_get_tree", arguments: {} }, undefined, { signal: controller.signal });
    while (seen === undefined) await new Promise((r) => setTimeout(r, 1));
    controller.abort();
    await assert.rejects(pending);
    while (world.audit.length === 0) await new Promise((r) => setTimeout(r, 1));
  });
  assert.equal(seen?.aborted, true);
  assert.equal(world.lock.held.size, 0);
  assert.equal(world.audit[0]!.outcome, "cancelled", "audited as what happened (issue 18), not as a timeout");
});
