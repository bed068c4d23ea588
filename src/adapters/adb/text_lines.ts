/**
 * Splits adb output into lines the same way for every parser: CRLF and CR become LF, a UTF-8 BOM is
 * dropped, and trailing whitespace of each line is removed. Pure; never throws.
 */
export function toLines(text: string): string[] {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n").map((line) => line.trimEnd());
}
