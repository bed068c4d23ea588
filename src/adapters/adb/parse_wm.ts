/**
 * Parses `wm size` and `wm density`. Physical and Override values are both returned; `effective` is
 * the override when set (what apps and uiautomator see), else the physical one. Noise lines before
 * the answer (`open: Permission denied`) are ignored; an exception text gives null. Pure.
 */
import { toLines } from "./text_lines.ts";

export interface WmSize {
  physical: { width: number; height: number } | null;
  override: { width: number; height: number } | null;
  effective: { width: number; height: number };
}

export interface WmDensity {
  physical: number | null;
  override: number | null;
  effective: number;
}

export function parseWmSize(text: string): WmSize | null {
  let physical: WmSize["physical"] = null;
  let override: WmSize["override"] = null;
  for (const line of toLines(text)) {
    const match = /^\s*(Physical|Override) size:\s*(\d+)x(\d+)\s*$/.exec(line);
    if (match === null) continue;
    const size = { width: Number(match[2]), height: Number(match[3]) };
    if (size.width <= 0 || size.height <= 0) continue;
    if (match[1] === "Physical") physical = size;
    else override = size;
  }
  const effective = override ?? physical;
  return effective === null ? null : { physical, override, effective };
}

export function parseWmDensity(text: string): WmDensity | null {
  let physical: number | null = null;
  let override: number | null = null;
  for (const line of toLines(text)) {
    const match = /^\s*(Physical|Override) density:\s*(\d+)\s*$/.exec(line);
    if (match === null || Number(match[2]) <= 0) continue;
    if (match[1] === "Physical") physical = Number(match[2]);
    else override = Number(match[2]);
  }
  const effective = override ?? physical;
  return effective === null ? null : { physical, override, effective };
}
