/**
 * Bench section "png": the screenshot path's PNG work on a real 1080×2400 capture (from the corpus), timed
 * in process: the evidence check (one colour?), the model copy (1024 px long side, re-encoded), both
 * together as `ui_screenshot` runs them, and a full decode to RGBA; beside them the same work done the
 * way it was before (upng-js: pure-JS inflate/deflate, full decode, adaptive filters), for the ratio. Each cell
 * gives the wall time and, after a slash, the process's CPU time: on a shared machine the CPU time is the steadier.
 */
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { join } from "node:path";
import UPNG from "upng-js";
import { boxResize, checkScreenshotShowsSomething, decodePng, downscaleForModel, isOneColour } from "../../src/png/mod.ts";
import { type BenchIO, type BenchSection, median } from "./section.ts";

const CAPTURE = "permission-location-dialog-en.png";
/** The target for a whole `ui_screenshot` against the simulated device; the PNG work is most of it. */
export const SCREENSHOT_TARGET_MS = 100;

interface Timing {
  wall: number[];
  cpu: number[];
}

type EncodeWithOptions = (b: ArrayBuffer[], w: number, h: number, c: number, d?: number[], forbidPlte?: boolean) => ArrayBuffer;

export const pngSection: BenchSection = {
  name: "png: the screenshot path's PNG work on a 1080x2400 capture (native zlib against upng-js)",
  run(io: BenchIO) {
    const path = join(io.corpusDir, CAPTURE);
    if (!existsSync(path)) {
      io.print(`skipped: ${path} not found`);
      return;
    }
    const capture = new Uint8Array(readFileSync(path));
    // Each run gets its own copy, so nothing remembered per byte array carries over between runs.
    const time = (work: (png: Uint8Array) => unknown) => {
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < io.repetitions + 2; i++) {
        const png = capture.slice();
        const start = performance.now();
        const startCpu = process.cpuUsage();
        work(png);
        const used = process.cpuUsage(startCpu);
        if (i < 2) continue; // two warm-up runs
        wall.push(performance.now() - start);
        cpu.push((used.user + used.system) / 1000);
      }
      return { wall, cpu };
    };
    const rows: [string, Timing, Timing][] = [
      ["one-colour check", time(checkScreenshotShowsSomething), time((png) => isOneColour(upngDecode(png)))],
      ["model copy (1024 px)", time((png) => downscaleForModel(png)), time((png) => upngEncode(boxResize(upngDecode(png), 1024)))],
      [
        "check + model copy",
        time((png) => {
          checkScreenshotShowsSomething(png);
          downscaleForModel(png);
        }),
        time((png) => {
          const image = upngDecode(png);
          isOneColour(image);
          upngEncode(boxResize(image, 1024));
        }),
      ],
      ["full decode to RGBA", time(decodePng), time(upngDecode)],
    ];
    io.print(`${CAPTURE} (${capture.length} bytes), ${io.repetitions} runs each; ms, median wall / median CPU`);
    io.print("step                    native          upng-js         ratio (CPU)");
    const cell = (t: Timing) => `${median(t.wall).toFixed(1)} / ${median(t.cpu).toFixed(1)}`.padEnd(16);
    for (const [name, native, upng] of rows) {
      io.print(`${name.padEnd(24)}${cell(native)}${cell(upng)}${(median(upng.cpu) / median(native.cpu)).toFixed(1)}x`);
    }
    const path3 = rows[2]![1];
    io.print(`PNG work of one ui_screenshot: ${median(path3.wall).toFixed(1)} ms wall, ${median(path3.cpu).toFixed(1)} ms CPU`);
    io.print(`(the whole call's target is < ${SCREENSHOT_TARGET_MS} ms on a quiet machine: see the mcp section)`);
  },
};

function upngDecode(png: Uint8Array) {
  const image = UPNG.decode(png.slice().buffer);
  return { width: image.width, height: image.height, rgba: new Uint8Array(UPNG.toRGBA8(image)[0]!) };
}

function upngEncode(image: { width: number; height: number; rgba: Uint8Array }): Uint8Array {
  const encode = UPNG.encode as unknown as EncodeWithOptions;
  return new Uint8Array(encode([image.rgba.slice().buffer], image.width, image.height, 0, undefined, true));
}
