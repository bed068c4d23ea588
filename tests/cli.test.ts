import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCliCaptured } from "./support/cli.ts";
import { REPO_ROOT } from "./support/paths.ts";
import { joinNegativeValues, repeatedFlag } from "../src/cli/raw_arguments.ts";
import { describeRuntime } from "../src/runtime_info.ts";
import { startSimDevice } from "../src/sim/mod.ts";
import { VERSION } from "../src/version.ts";

test("--version prints the package.json version", async () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  assert.equal(VERSION, pkg.version);
  const run = await runCliCaptured(["--version"]);
  assert.equal(run.code, 0);
  assert.match(
    run.stdout,
    new RegExp(`^android-mcp-harness/${VERSION.replaceAll(".", "\\.")} \\(node \\d+\\.\\d+\\.\\d+, [a-z0-9]+-[a-z0-9]+\\)\\n$`),
  );
  assert.equal((await runCliCaptured(["-v"])).stdout, run.stdout);
});

test("--version names the runtime itself: Deno's and Bun's own versions, and the single executable", () => {
  const platform = { platform: "linux", arch: "x64", versions: { node: "26.3.0" } };
  assert.equal(describeRuntime({ process: platform, Deno: { version: { deno: "2.9.6" } } }), "deno 2.9.6, linux-x64");
  assert.equal(
    describeRuntime({ process: platform, Bun: { version: "1.4.5", main: "/$bunfs/root/android-mcp-harness" } }),
    "single executable, bun 1.4.5, linux-x64",
  );
  assert.equal(
    describeRuntime({
      process: { ...platform, platform: "win32" },
      Bun: { version: "1.4.5", main: "B:/~BUN/root/android-mcp-harness.exe" },
    }),
    "single executable, bun 1.4.5, win32-x64",
  );
  assert.equal(describeRuntime({ process: platform, Bun: { version: "1.4.5", main: "/home/me/src/main.ts" } }), "bun 1.4.5, linux-x64");
  assert.equal(describeRuntime({ process: platform }), "node 26.3.0, linux-x64");
});

test("help is a command: alone it prints --help's text, with a command name that command's help", async () => {
  const help = await runCliCaptured(["help"]);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, (await runCliCaptured(["--help"])).stdout);
  assert.match(help.stdout, /^ {2}help \[command\] /m);
  const tree = await runCliCaptured(["help", "tree"]);
  assert.equal(tree.code, 0);
  assert.equal(tree.stdout, (await runCliCaptured(["tree", "--help"])).stdout);
  const unknown = await runCliCaptured(["help", "frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /Unknown command "frobnicate"/);
});

test("a flag given twice is refused with one line, whatever its kind", async () => {
  for (
    const args of [["tree", "--file", "a.xml", "--density", "420", "--density", "480"], ["sim", "--json", "--json"], [
      "serve",
      "--device=sim",
      "--device",
      "sim",
    ]]
  ) {
    const run = await runCliCaptured(args);
    assert.equal(run.code, 2, args.join(" "));
    assert.match(run.stderr, /^android-mcp-harness: --(density|json|device) was given more than once; give it once\.\n/, args.join(" "));
    assert.equal(run.stdout, "");
  }
});

test("a flag a command takes several times is not refused (flow --device a --device b); others still are", async () => {
  assert.equal(repeatedFlag(["flow", "f.json", "--device", "a", "--device=b"], new Set(["--device"])), undefined);
  assert.equal(
    repeatedFlag(["flow", "f.json", "--json", "--json"], new Set(["--device"])),
    "--json was given more than once; give it once.",
  );
  assert.equal(repeatedFlag(["x", "--", "--a", "--a"]), undefined);
  const flow = await runCliCaptured(["flow", "nope.json", "--device", "sim", "--device", "sim"]);
  assert.doesNotMatch(flow.stderr, /more than once/);
  const twice = await runCliCaptured(["flow", "nope.json", "--json", "--json"]);
  assert.equal(twice.code, 1, "flow's usage errors exit 1 (its 2 means timed out)");
  assert.match(twice.stderr, /--json was given more than once/);
});

test("a negative number after a flag is that flag's value (refused by the command), not an unknown option", async () => {
  const run = await runCliCaptured(["tree", "--file", "a.xml", "--density", "-5"]);
  assert.equal(run.code, 2);
  assert.doesNotMatch(run.stderr, /Unknown option/);
  assert.match(run.stderr, /--density/);
  assert.deepEqual(
    joinNegativeValues(["tree", "--density", "-5", "--json", "--", "--density", "-1"], [{ rawName: "--density <dpi>" }, {
      rawName: "--json",
    }]),
    ["tree", "--density=-5", "--json", "--", "--density", "-1"],
  );
});

test("an unknown command is a usage error with exit code 2", async () => {
  const run = await runCliCaptured(["frobnicate"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Unknown command "frobnicate"/);
  assert.match(run.stderr, /--help/);
});

test("no command prints help and exits 2", async () => {
  const run = await runCliCaptured([]);
  assert.equal(run.code, 2);
  assert.match(run.stdout, /Usage:/);
});

test("an unknown option is a usage error with exit code 2", async () => {
  const run = await runCliCaptured(["--frobnicate"]);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /Unknown option "--frobnicate"/);
});

test("option values keep their text: a numeric-looking serial keeps its leading zeros", async (t) => {
  const sim = await startSimDevice({});
  t.after(() => sim.stop());
  const run = await runCliCaptured(["tree", "--device", "0012345"], { env: { ADB_SERVER_SOCKET: sim.adbServerSocket } });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /Cannot find device "0012345"/);
  const inline = await runCliCaptured(["tree", "--file=007"]);
  assert.match(inline.stderr, /\/007\b/);
  assert.doesNotMatch(inline.stderr, /needs a path/);
});

test("--scenario, --screen, --latency and --devices without --device sim are refused alike, before anything starts (serve, flow)", async () => {
  const env = { ADB_SERVER_SOCKET: "tcp:127.0.0.1:9", ANDROID_UDID: "emulator-5554" }; // a real device: nothing to reach
  const flowFile = join(REPO_ROOT, "docs", "flows", "settings-exploration.json");
  const cases: [string[], number, RegExp, Record<string, string>?][] = [
    [["serve", "--scenario", "shop"], 2, /^serve: --scenario picks what the simulated device shows: add --device sim\.$/],
    [
      ["serve", "--device", "emulator-5554", "--scenario", "shop"],
      2,
      /^serve: --scenario picks what the simulated device shows: add --device sim\.$/,
    ],
    [["serve", "--latency", "device"], 2, /^serve: --latency is for the simulated device: add --device sim\.$/],
    [["serve", "--screen", "dump.xml"], 2, /^serve: --screen replays a capture on the simulated device: add --device sim\.$/],
    [["serve", "--devices", "2"], 2, /^serve: --devices is for the simulated device: add --device sim\.$/],
    [
      ["serve", "--device", "sim", "--devices", "9"],
      2,
      /^serve: --devices takes how many simulated devices to serve, a whole number from 1 to 8\.$/,
    ],
    [["sim", "--devices", "two"], 2, /^sim: --devices takes how many simulated devices to serve, a whole number from 1 to 8\.$/],
    [
      ["serve", "--device", "sim", "--devices", "2"],
      2,
      /^serve: --devices with APPIUM_URL: the simulated UiAutomator2 endpoint stands for one device; unset APPIUM_URL/,
      { APPIUM_URL: "http://127.0.0.1:9" },
    ],
    [["flow", flowFile, "--scenario", "shop"], 1, /^flow: --scenario picks what the simulated device shows: add --device sim\.$/],
  ];
  for (const [args, code, said, more] of cases) {
    const run = await runCliCaptured(args, { env: { ...env, ...more } });
    assert.equal(run.code, code, `${args.join(" ")}: ${run.stderr}`);
    assert.match(run.stderr.trim(), said, args.join(" "));
    assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
  }
});

test("tree with a dump as a bare argument names --file (not only cac's 'Unused args')", async () => {
  const run = await runCliCaptured(["tree", "dump.xml"]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /tree reads a saved dump with --file: android-mcp-harness tree --file dump\.xml/);
  assert.equal((await runCliCaptured(["tree", "a.xml", "b.xml"])).code, 2);
});
