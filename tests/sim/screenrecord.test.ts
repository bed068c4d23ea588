import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import UPNG from "upng-js";
import { startAdbServer } from "../../src/sim/adb/server.ts";
import { resolveScenario } from "../../src/sim/scenario/load.ts";
import { ScenarioDevice } from "../../src/sim/scenario_device.ts";
import { ADB, adb, NO_ADB } from "./adb_cli.ts";
import { decodeFrames, ffprobeSkipReason, probeVideo } from "../support/ffprobe.ts";

const SKIP = NO_ADB || ffprobeSkipReason();

/** A device on a clock the test moves, behind a fake adb server; the file `screenrecord` wrote, on disk. */
async function recordingDevice() {
  const clock = { now: 1_000_000 };
  const device = new ScenarioDevice(resolveScenario("login"), { now: () => clock.now });
  const server = await startAdbServer(device);
  const dir = mkdtempSync(join(tmpdir(), "amh-screenrecord-"));
  const saved = (devicePath: string) => {
    const bytes = device.files.get(devicePath);
    assert.ok(bytes !== undefined, `${devicePath} was written`);
    const file = join(dir, "recording.mp4");
    writeFileSync(file, bytes);
    return file;
  };
  const close = async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { clock, device, server, saved, close };
}

const decoded = new Map<Uint8Array, { width: number; rgba: Uint8Array }>();

function pixelAt(png: Uint8Array, x: number, y: number): number[] {
  let image = decoded.get(png);
  if (image === undefined) {
    const d = UPNG.decode(png.slice().buffer);
    image = { width: d.width, rgba: new Uint8Array(UPNG.toRGBA8(d)[0]!) };
    decoded.set(png, image);
  }
  const rgba = image.rgba;
  const i = (y * image.width + x) * 4;
  return [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
}

/** A point (in quarter-size coordinates) in the middle of a 5×5 block that differs between the two screens. */
function differingPoint(a: Uint8Array, b: Uint8Array): [number, number] {
  for (let y = 10; y < 590; y += 5) {
    for (let x = 10; x < 260; x += 5) {
      const block = [-2, 0, 2].flatMap((dy) => [-2, 0, 2].map((dx) => [(x + dx) * 4 + 2, (y + dy) * 4 + 2] as const));
      if (block.every(([px, py]) => !near(pixelAt(a, px, py), pixelAt(b, px, py)))) return [x, y];
    }
  }
  throw new Error("the two screens do not differ");
}

const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 12);

test(
  "screenrecord interrupted (SIGINT to adb) writes an MP4 of the screens shown, as long as the time recorded",
  { skip: SKIP },
  async () => {
    const sim = await recordingDevice();
    try {
      const before = sim.device.screenshotPng();
      let after = before;
      const env = { ...process.env, ADB_SERVER_SOCKET: sim.server.socketSpec };
      const child = spawn(ADB!, ["shell", "screenrecord", "/data/local/tmp/rec.mp4"], { env, stdio: "ignore" });
      const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
      try {
        while (!sim.device.log.some((e) => e.command.startsWith("screenrecord"))) await new Promise((r) => setTimeout(r, 20));
        assert.equal(sim.device.files.get("/data/local/tmp/rec.mp4"), undefined, "nothing is written while it records");
        sim.clock.now += 2500;
        sim.device.back(); // the keyboard closes: another screen
        after = sim.device.screenshotPng();
        await new Promise((r) => setTimeout(r, 1200)); // the recorder looks at least twice
        sim.clock.now += 1500;
        child.kill("SIGINT");
        await exited;
      } finally {
        child.kill("SIGKILL");
      }
      while (!sim.device.files.has("/data/local/tmp/rec.mp4")) await new Promise((r) => setTimeout(r, 20));
      const file = sim.saved("/data/local/tmp/rec.mp4");
      const facts = probeVideo(file);
      assert.deepEqual(facts, { codec: "h264", width: 270, height: 600, frames: 2, duration: 4 });
      const frames = decodeFrames(file, facts);
      assert.equal(frames.length, 2);
      // Each frame is the screen of its time, at a quarter of the size: a point where the two screens differ.
      const [x, y] = differingPoint(before, after);
      const frameAt = (f: Uint8Array) => [...f.subarray((y * facts.width + x) * 3, (y * facts.width + x) * 3 + 3)];
      assert.ok(near(frameAt(frames[0]!), pixelAt(before, x * 4 + 2, y * 4 + 2)), `frame 1 ${frameAt(frames[0]!)} shows the keyboard`);
      assert.ok(near(frameAt(frames[1]!), pixelAt(after, x * 4 + 2, y * 4 + 2)), `frame 2 ${frameAt(frames[1]!)} shows it closed`);
      assert.ok(!near(frameAt(frames[0]!), frameAt(frames[1]!)), "the two frames differ there");
    } finally {
      await sim.close();
    }
  },
);

test("screenrecord --time-limit N ends by itself (exit 0, no output) with an MP4 of N seconds", { skip: SKIP }, async () => {
  const sim = await recordingDevice();
  try {
    const ticking = setInterval(() => (sim.clock.now += 100), 100);
    const run = await adb(sim.server.socketSpec, ["shell", "screenrecord", "--time-limit", "1", "/sdcard/limit.mp4"], {
      timeoutMs: 20_000,
    });
    clearInterval(ticking);
    assert.deepEqual([run.code, run.stdout.length, run.stderr], [0, 0, ""]);
    const facts = probeVideo(sim.saved("/sdcard/limit.mp4"));
    assert.equal(facts.duration, 1);
    assert.equal(facts.frames, 1);
  } finally {
    await sim.close();
  }
});

test(
  "screenrecord refuses what the real one refuses: no file, a time limit outside 1-180 s, a missing directory",
  { skip: NO_ADB },
  async () => {
    const sim = await recordingDevice();
    try {
      const run = (args: string[]) => adb(sim.server.socketSpec, ["shell", "screenrecord", ...args]);
      const noFile = await run([]);
      assert.equal(noFile.code, 2);
      assert.match(noFile.stderr, /Must specify output file/);
      const tooLong = await run(["--time-limit", "181", "/sdcard/x.mp4"]);
      assert.deepEqual([tooLong.code, tooLong.stderr], [2, "Time limit 181s outside acceptable range [1,180]\n"]);
      const nowhere = await run(["/nowhere/x.mp4"]);
      assert.deepEqual([nowhere.code, nowhere.stderr], [1, "Unable to open '/nowhere/x.mp4': No such file or directory\n"]);
      assert.equal([...sim.device.files.keys()].filter((k) => k.endsWith(".mp4")).length, 0);
    } finally {
      await sim.close();
    }
  },
);
