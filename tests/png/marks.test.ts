/**
 * Set-of-mark drawing (src/png/marks.ts, downscaleForModel's marks): every mark's number is readable
 * inside its box, labels never cover each other while a free corner exists, boxes outside the image are
 * skipped, the input pixels are left alone, and the model image stays within its size and byte budget.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodePng, DIGIT_HEIGHT, digitRows, downscaleForModel, drawMarks, type Mark, placeMarks } from "../../src/png/mod.ts";
import { findMark } from "./mark_reader.ts";
import { makePng } from "./png_samples.ts";

const blank = (width: number, height: number) => ({ width, height, rgba: new Uint8Array(width * height * 4).fill(240) });

test("each mark's number is drawn inside its box, readable digit by digit", () => {
  const marks: Mark[] = [0, 7, 12, 105].map((number, i) => ({ number, box: [20 + i * 120, 30, 110, 60] }));
  const image = drawMarks(blank(500, 120), marks, 1);
  for (const mark of marks) {
    const [l, t, w, h] = mark.box;
    const found = findMark(image, mark.number, { left: l, top: t, right: l + w, bottom: t + h });
    assert.ok(found !== null, `mark ${mark.number} not found in its box`);
    assert.ok(found.left + found.width <= l + w && found.top + found.height <= t + h, `mark ${mark.number} spills out`);
  }
  assert.equal(findMark(image, 8, { left: 0, top: 0, right: 500, bottom: 120 }), null, "no number that was not drawn");
});

test("a box drawn at a smaller ratio gets its mark at the scaled place", () => {
  const image = drawMarks(blank(540, 1200), [{ number: 3, box: [540, 1200, 400, 300] }], 0.5);
  assert.ok(findMark(image, 3, { left: 270, top: 600, right: 470, bottom: 750 }));
  assert.equal(findMark(image, 3, { left: 0, top: 0, right: 270, bottom: 600 }), null);
});

test("two boxes with the same corner: the second label takes another corner instead of covering the first", () => {
  const placed = placeMarks([{ number: 1, box: [0, 0, 300, 200] }, { number: 2, box: [0, 0, 300, 100] }], {
    width: 400,
    height: 400,
    ratio: 1,
  });
  const [a, b] = placed.map((p) => p.label);
  assert.ok(a!.right <= b!.left || b!.right <= a!.left || a!.bottom <= b!.top || b!.bottom <= a!.top, JSON.stringify(placed));
  const image = drawMarks(blank(400, 400), [{ number: 1, box: [0, 0, 300, 200] }, { number: 2, box: [0, 0, 300, 100] }], 1);
  assert.ok(findMark(image, 1, { left: 0, top: 0, right: 300, bottom: 200 }));
  assert.ok(findMark(image, 2, { left: 0, top: 0, right: 300, bottom: 100 }));
});

test("a box off the image is skipped; one that sticks out is marked inside the image; the input is not touched", () => {
  const input = blank(200, 200);
  const before = input.rgba.slice();
  const placed = placeMarks([{ number: 0, box: [300, 300, 50, 50] }, { number: 1, box: [180, -40, 100, 60] }], {
    width: 200,
    height: 200,
    ratio: 1,
  });
  assert.deepEqual(placed.map((p) => p.number), [1]);
  const label = placed[0]!.label;
  assert.ok(label.left >= 0 && label.top >= 0 && label.right <= 200 && label.bottom <= 200, JSON.stringify(label));
  drawMarks(input, [{ number: 1, box: [180, -40, 100, 60] }], 1);
  assert.deepEqual(input.rgba, before);
});

test("digitRows draws digits only", () => {
  assert.equal(digitRows("8").length, 5);
  assert.throws(() => digitRows("A"), /0-9 only/);
});

test("downscaleForModel with marks: always re-encoded, long side ≤ 1024, marks readable at the model size", () => {
  const png = makePng(1080, 2400, (x, y) => ((x >> 5) + (y >> 5)) % 2 === 0 ? [250, 250, 250, 255] : [200, 210, 220, 255]);
  const plain = downscaleForModel(png);
  const marked = downscaleForModel(png, { marks: [{ number: 4, box: [0, 300, 1080, 200] }, { number: 11, box: [880, 750, 137, 100] }] });
  assert.deepEqual([marked.width, marked.height], [plain.width, plain.height]);
  assert.equal(marked.transformed, true);
  const image = decodePng(marked.bytes);
  const r = marked.width / 1080;
  const four = findMark(image, 4, { left: 0, top: Math.floor(300 * r), right: marked.width, bottom: Math.ceil(500 * r) });
  assert.ok(four);
  // Readable at the model size (461×1024): digits scale with the image, about 1/40 of its long side tall.
  assert.deepEqual([marked.width, marked.height], [461, 1024]);
  assert.ok(four.digitScale * DIGIT_HEIGHT >= 24, `digits ${four.digitScale * DIGIT_HEIGHT} px tall at 461×1024`);
  assert.ok(
    findMark(image, 11, { left: Math.floor(880 * r), top: Math.floor(750 * r), right: Math.ceil(1017 * r), bottom: Math.ceil(850 * r) }),
  );
  const small = makePng(64, 48, () => [10, 20, 30, 255]);
  assert.equal(downscaleForModel(small, { marks: [] }).transformed, true, "asked for marks: never the original bytes");
});
