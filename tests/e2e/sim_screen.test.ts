/**
 * A user's capture as a reproducible device, end to end: `sim --screen` (a real child process) and
 * `serve --device sim --screen` on corpus captures; `ui_get_tree` over MCP (SDK client, real stdio, the
 * real adb client underneath) gives the same actions as `tree --file` on that capture; `ui_screenshot
 * annotate: true` returns a model image whose numbered marks sit on those actions, while the evidence
 * PNG on disk is the capture's screenshot without marks; acts (ui_tap, device_back) succeed and change nothing.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import UPNG from "upng-js";
import { decodePng } from "../../src/png/mod.ts";
import { simulatedBadge } from "../../src/sim/mod.ts";
import { NO_ADB } from "../sim/adb_cli.ts";
import { findMark } from "../png/mark_reader.ts";
import { envelopeOf, harnessCommand, spawnServe } from "../support/mcp_client.ts";
import { exitWithin, killQuietly, makeServeHome } from "../support/mcp_e2e.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

const skip = corpusSkipReason() || NO_ADB;

/** `tree --file CAPTURE --json` through the compiled CLI: the offline summary of the capture. */
async function treeOfFile(file: string): Promise<{ actions: unknown[]; foreground_package: string }> {
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, "tree", "--file", file, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c: Buffer) => void (out += c.toString()));
  assert.equal(await exitWithin(child, 20_000), 0, "tree --file exits 0");
  return JSON.parse(out);
}

/** `sim --screen … --json` as a child process; resolves with its endpoints once it prints them. */
async function startSimProcess(args: string[]): Promise<{ pid: number | undefined; adbServerSocket: string; foregroundPackage: string }> {
  const [command, ...prefix] = harnessCommand();
  const child = spawn(command, [...prefix, "sim", "--json", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (c: Buffer) => void (err += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) resolve(); // with --json, stdout is the one JSON line (the human lines go to stderr)
    });
    child.on("close", (code) => reject(new Error(`sim exited with ${code}: ${err}`)));
    setTimeout(() => reject(new Error(`sim printed nothing in 15 s: ${err}`)), 15_000).unref();
  }).catch((error: unknown) => {
    killQuietly(child.pid); // the caller never learns its pid: stop it here, or it outlives the test run
    throw error;
  });
  const first = JSON.parse(out.split("\n")[0]!) as { adbServerSocket: string; foregroundPackage: string };
  return { pid: child.pid, ...first };
}

test("sim --screen: ui_get_tree over MCP (through the sim's adb socket) gives the same actions as tree --file", { skip }, async () => {
  for (
    const name of [
      "settings-miui-home-es-appium.xml",
      "gmail-compose-gboard-keyboard-open.xml",
      "tablet-landscape-rotation3-settings-list.xml",
    ]
  ) {
    const file = join(CORPUS_DIR, name);
    const offline = await treeOfFile(file);
    const sim = await startSimProcess(["--screen", file]);
    const home = makeServeHome();
    try {
      assert.equal(sim.foregroundPackage, offline.foreground_package, name);
      const served = await spawnServe([], { ...home.env, ADB_SERVER_SOCKET: sim.adbServerSocket });
      try {
        const tree = envelopeOf(await served.client.callTool({ name: "ui_get_tree", arguments: {} }));
        assert.equal(tree.ok, true, JSON.stringify(tree.error));
        assert.ok(offline.actions.length > 0, name);
        assert.deepEqual(tree.data["actions"], offline.actions, name);
        assert.equal(tree.data["foreground_package"], offline.foreground_package, name);
        const status = envelopeOf(await served.client.callTool({ name: "device_status", arguments: {} }));
        assert.equal(status.data["simulated"], true, "the device says it is simulated");
      } finally {
        await served.close();
      }
    } finally {
      killQuietly(sim.pid);
      home.remove();
    }
  }
});

test("serve --device sim --screen --screenshot: same actions as tree --file; annotate marks sit on them; the evidence stays clean", {
  skip,
}, async () => {
  const file = join(CORPUS_DIR, "permission-location-dialog-en.xml");
  const shot = join(CORPUS_DIR, "permission-location-dialog-en.png");
  const offline = await treeOfFile(file);
  const home = makeServeHome();
  const served = await spawnServe(["--device", "sim", "--screen", file, "--screenshot", shot], home.env);
  try {
    assert.match(
      served.stderr(),
      /the simulated device shows .*permission-location-dialog-en\.xml: acts are answered, the screen does not change/,
    );
    const tree = envelopeOf(await served.client.callTool({ name: "ui_get_tree", arguments: {} }));
    assert.deepEqual(tree.data["actions"], offline.actions);

    const result = await served.client.callTool({ name: "ui_screenshot", arguments: { annotate: true } });
    const envelope = envelopeOf(result);
    assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
    const actions = envelope.data["actions"] as { bounds: [number, number, number, number]; selector: unknown }[];
    assert.deepEqual(actions, offline.actions, "data.actions is the summary's list");
    assert.deepEqual([envelope.data["width"], envelope.data["height"]], [1080, 2400]);
    const content = result.content as { type: string; data?: string }[];
    const image = decodePng(Uint8Array.from(Buffer.from(content[1]!.data!, "base64")));
    assert.ok(Math.max(image.width, image.height) <= 1024);
    const r = image.width / 1080;
    actions.forEach((action, number) => {
      const [l, t, w, h] = action.bounds;
      const region = { left: Math.floor(l * r), top: Math.floor(t * r), right: Math.ceil((l + w) * r), bottom: Math.ceil((t + h) * r) };
      const mark = findMark(image, number, region);
      assert.ok(mark, `mark ${number} inside the bounds of ${JSON.stringify(action.selector)}`);
    });

    // The evidence on disk is the capture's screenshot (the badge over its status bar), with no mark.
    const evidence = decodePng(new Uint8Array(readFileSync(envelope.evidence!.path)));
    const given = UPNG.decode(readFileSync(shot).buffer.slice(0) as ArrayBuffer);
    const givenPx = new Uint8Array(UPNG.toRGBA8(given)[0]!);
    const below = simulatedBadge(1080, 2400).band.bottom * 1080 * 4;
    assert.deepEqual(evidence.rgba.subarray(below), givenPx.subarray(below), "every pixel below the badge is the capture's");
    const plain = await served.client.callTool({ name: "ui_screenshot", arguments: {} });
    const plainData = envelopeOf(plain).data;
    assert.deepEqual(Object.keys(plainData), ["width", "height", "fingerprint"], "no actions without annotate");
    assert.match(String(plainData["fingerprint"]), /^[0-9a-f]{80}$/);

    // Acts are answered and change nothing: a tap on an offered action succeeds with `changed: false`.
    const tap = envelopeOf(await served.client.callTool({ name: "ui_tap", arguments: { selector: actions[1]!.selector } }));
    assert.equal(tap.ok, true, JSON.stringify(tap.error));
    assert.equal(tap.data["changed"], false);
    assert.deepEqual((tap.data["screen"] as { actions: unknown }).actions, offline.actions);
    const back = envelopeOf(await served.client.callTool({ name: "device_back", arguments: {} }));
    assert.equal(back.ok, true, JSON.stringify(back.error));
    assert.equal(back.data["changed"], false);
  } finally {
    await served.close();
    home.remove();
  }
});

test("tree --device sim --screen prints the same actions and texts as tree --file on the capture", { skip }, async () => {
  const file = join(CORPUS_DIR, "whatsapp-self-chat-ptbr-290-nodes.xml");
  const offline = await treeOfFile(file);
  const [command, ...prefix] = harnessCommand();
  const home = makeServeHome();
  try {
    const child = spawn(command, [...prefix, "tree", "--device", "sim", "--screen", file, "--json"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: home.env,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => void (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => void (err += c.toString()));
    assert.equal(await exitWithin(child, 20_000), 0, err);
    assert.match(err, /the device is SIMULATED/);
    const live = JSON.parse(out) as Record<string, unknown>;
    // The same screen: actions, texts and package. (The device also states a density, which a dump does not, so
    // its summary may add the 48 dp touch-target audit that `tree --file` without --density cannot make.)
    for (const key of ["actions", "texts", "foreground_package"]) {
      assert.deepEqual(live[key], (offline as Record<string, unknown>)[key], key);
    }
  } finally {
    home.remove();
  }
});

test("serve and tree refuse --screen without --device sim, and tree refuses --file with --screen (exit 2, one line)", {
  skip: corpusSkipReason(),
}, async () => {
  const file = join(CORPUS_DIR, "dialer-keypad.xml");
  const [command, ...prefix] = harnessCommand();
  for (
    const args of [["serve", "--screen", file], ["tree", "--screen", file], ["tree", "--file", file, "--screen", file], [
      "serve",
      "--device",
      "sim",
      "--screen",
      "missing.xml",
    ]]
  ) {
    const home = makeServeHome();
    try {
      const child = spawn(command, [...prefix, ...args], { stdio: ["pipe", "pipe", "pipe"], env: home.env });
      let err = "";
      child.stderr.on("data", (c: Buffer) => void (err += c.toString()));
      assert.equal(await exitWithin(child, 20_000), 2, `${args.join(" ")}: ${err}`);
      assert.equal(err.trim().split("\n").length, 1, err);
      assert.match(
        err,
        args.includes("--file")
          ? /Choose one of --file/
          : args.includes("missing.xml")
          ? /Cannot read the screen dump .*missing\.xml \(ENOENT\)/
          : /--screen replays a capture on the simulated device: add --device sim\./,
      );
    } finally {
      home.remove();
    }
  }
});
