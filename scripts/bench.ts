/**
 * `npm run bench`: runs each bench section in the explicit list below and prints its report. A bench
 * measures and prints; it is not a test and never fails on a number. `--repetitions N` (default 15)
 * sets how many timed runs each measurement takes; `--only WORD` runs the sections whose name starts with it.
 */
import process from "node:process";
import { CORPUS_DIR } from "../tests/support/paths.ts";
import type { BenchSection } from "./bench/section.ts";
import { actSection } from "./bench/act.ts";
import { mcpSection } from "./bench/mcp.ts";
import { pngSection } from "./bench/png.ts";
import { screenSummarySection } from "./bench/screen_summary.ts";
import { startupSection } from "./bench/startup.ts";

/** Every section, in the order they run. Add yours here. */
const SECTIONS: BenchSection[] = [
  screenSummarySection,
  pngSection,
  mcpSection,
  actSection,
  startupSection,
];

export async function runBench(args: readonly string[]): Promise<number> {
  const at = args.indexOf("--repetitions");
  const repetitions = at === -1 ? 15 : Number(args[at + 1]);
  if (!Number.isInteger(repetitions) || repetitions < 1) {
    process.stderr.write("bench: --repetitions must be a positive whole number\n");
    return 2;
  }
  const onlyAt = args.indexOf("--only");
  const only = onlyAt === -1 ? undefined : args[onlyAt + 1];
  const chosen = SECTIONS.filter((section) => only === undefined || section.name.startsWith(only));
  if (chosen.length === 0) {
    process.stderr.write(`bench: no section starts with "${only}" (${SECTIONS.map((s) => s.name.split(":")[0]).join(", ")})\n`);
    return 2;
  }
  for (const section of chosen) {
    process.stdout.write(`\n== ${section.name}\n`);
    await section.run({ print: (line) => process.stdout.write(line + "\n"), corpusDir: CORPUS_DIR, repetitions });
  }
  return 0;
}

runBench(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
