/**
 * The digits of the set-of-mark labels: a 3×5 bitmap font (the same idea as the simulated device's
 * screen font, kept here so the pure PNG module depends on nothing else). Each glyph is five rows of
 * three pixels, '#' ink and '.' paper; `digitRows` refuses anything but 0–9.
 */
const DIGITS: readonly string[] = [
  "### #.# #.# #.# ###",
  ".#. ##. .#. .#. ###",
  "##. ..# .#. #.. ###",
  "##. ..# .#. ..# ##.",
  "#.# #.# ### ..# ..#",
  "### #.. ##. ..# ##.",
  ".## #.. ### #.# ###",
  "### ..# .#. .#. .#.",
  "### #.# ### #.# ###",
  "### #.# ### ..# ##.",
];

export const DIGIT_WIDTH = 3;
export const DIGIT_HEIGHT = 5;

/** The five rows of a digit, each three booleans (true = ink). */
export function digitRows(digit: string): boolean[][] {
  const pattern = /^[0-9]$/.test(digit) ? DIGITS[Number(digit)] : undefined;
  if (pattern === undefined) throw new RangeError(`digitRows draws 0-9 only, not ${JSON.stringify(digit)}`);
  return pattern.split(" ").map((row) => [...row].map((c) => c === "#"));
}
