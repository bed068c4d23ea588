/**
 * Reads the shared real adb samples for the parser tests: every file of one folder, and a check that
 * each has an expectation (a new sample without one fails the test instead of going unchecked).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ADB_FIXTURES_DIR, corpusSkipReason } from "../support/paths.ts";

export function adbSamplesSkipReason(): string | false {
  return corpusSkipReason(ADB_FIXTURES_DIR);
}

export function readSamples(folder: string): Map<string, string> {
  const dir = join(ADB_FIXTURES_DIR, folder);
  const samples = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) samples.set(name, readFileSync(join(dir, name), "utf8"));
  return samples;
}

export function sample(folder: string, name: string): string {
  return readFileSync(join(ADB_FIXTURES_DIR, folder, name), "utf8");
}

/** Runs `check` on every sample of the folder; every file must have an expectation and vice versa. */
export function eachSample<T>(folder: string, expected: Record<string, T>, check: (text: string, want: T, name: string) => void): void {
  const samples = readSamples(folder);
  assert.deepEqual([...samples.keys()].sort(), Object.keys(expected).sort(), `expectations for every sample in ${folder}`);
  for (const [name, text] of samples) check(text, expected[name]!, name);
}
