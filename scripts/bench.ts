/**
 * `npm run bench`: runs each bench section in the explicit list below and prints its report. A bench
 * measures and prints; it is not a test and never fails on a number. `--repetitions N` (default 15)
 * sets how many timed runs each measurement takes; `--only WORD` runs the sections whose name starts with it.
 */
import process from "node:process";
import { CORPUS_DIR } from "../tests/support/paths.ts";
import type { BenchSection } from "./bench/section.ts";
import { actSection } from "./bench/act.ts";
import { actTasksSection } from "./bench/act_tasks.ts";
import { firstUseSection } from "./bench/first_use.ts";
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
  actTasksSection,
  firstUseSection,
  startupSection,
];

function usage(): string {
  return [
    "usage: npm run bench -- [--repetitions N] [--only WORD]",
    "  --repetitions N  timed runs per measurement (default 15)",
    "  --only WORD      only the sections whose name starts with WORD",
    "sections, in the order they run:",
    ...SECTIONS.map((s) => `  ${s.name}`),
    "",
  ].join("\n");
}

export async function runBench(args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(usage());
    return 0;
  }
  const unknown = args.filter((arg, i) =>
    arg.startsWith("-") && arg !== "--repetitions" && arg !== "--only" &&
    args[i - 1] !== "--repetitions" && args[i - 1] !== "--only"
  );
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown option ${unknown.join(", ")}\n${usage()}`);
    return 2;
  }
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
