/**
 * `npm run campaign`: the harness tried as an attacker and an overloaded user would (issue 12): fuzzing of
 * every tool's arguments and of raw JSON-RPC frames through the real server over stdio, faults through the
 * simulated device's switches, load and contention, a soak; then the table. Exits 1 when any invariant was
 * violated. `--mode ci` (default) is bounded for CI (≥ 10,000 fuzzed calls, a few minutes); `--mode long`
 * runs longer; `--mode smoke` is the few-second version the test suite runs. `--seed N` replays a run.
 */
import process from "node:process";
import { CAMPAIGN_MODES, type CampaignMode, runCampaign } from "./campaign/run.ts";

export async function main(args: readonly string[]): Promise<number> {
  const value = (flag: string) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args[at + 1];
  };
  const mode = (value("--mode") ?? "ci") as CampaignMode;
  if (!(mode in CAMPAIGN_MODES)) {
    process.stderr.write(`campaign: --mode must be one of ${Object.keys(CAMPAIGN_MODES).join(", ")}\n`);
    return 2;
  }
  const seedText = value("--seed");
  const seed = seedText === undefined ? Date.now() % 1_000_000 : Number(seedText);
  if (!Number.isInteger(seed)) {
    process.stderr.write("campaign: --seed must be a whole number\n");
    return 2;
  }
  const only = value("--only")?.split(",");
  const tally = await runCampaign({
    mode,
    seed,
    ...(only === undefined ? {} : { only }),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`\ncampaign (${mode}, seed ${seed})\n${tally.table().join("\n")}\n`);
  process.stdout.write(tally.failed === 0 ? "\nevery invariant held\n" : `\n${tally.failed} violation(s)\n`);
  return tally.failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`campaign: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
