/**
 * The campaign's sections in order and the sizes of each mode (hardening has one size: each defect once). `runCampaign` runs them and returns the
 * tally; it never throws for a finding (findings are violations in the tally).
 */
import { runFaults } from "./faults.ts";
import { runFrames } from "./frames.ts";
import { runFuzz } from "./fuzz.ts";
import { runHardening } from "./hardening.ts";
import { runLoad } from "./load.ts";
import { runSoak } from "./soak.ts";
import { Tally } from "./tally.ts";

export interface ModeSizes {
  fuzz: { lanes: number; callsPerLane: number; actBudget: number; observeBudget: number };
  frames: { frames: number; oversized: number };
  faults: { rounds: number };
  load: { clients: number; seconds: number };
  soak: { calls: number };
}

export const CAMPAIGN_MODES = {
  smoke: {
    fuzz: { lanes: 1, callsPerLane: 300, actBudget: 3, observeBudget: 20 },
    frames: { frames: 150, oversized: 1 },
    faults: { rounds: 1 },
    load: { clients: 8, seconds: 8 },
    soak: { calls: 60 },
  },
  ci: {
    fuzz: { lanes: 4, callsPerLane: 2600, actBudget: 12, observeBudget: 120 },
    frames: { frames: 1500, oversized: 4 },
    faults: { rounds: 1 },
    load: { clients: 8, seconds: 20 },
    soak: { calls: 300 },
  },
  long: {
    fuzz: { lanes: 4, callsPerLane: 25_000, actBudget: 250, observeBudget: 2500 },
    frames: { frames: 20_000, oversized: 20 },
    faults: { rounds: 5 },
    load: { clients: 8, seconds: 300 },
    soak: { calls: 5000 },
  },
} as const satisfies Record<string, ModeSizes>;

export type CampaignMode = keyof typeof CAMPAIGN_MODES;

export interface CampaignOptions {
  mode: CampaignMode;
  seed: number;
  /** Run only these sections (fuzz, frames, faults, load, soak, hardening). */
  only?: readonly string[];
  log?: (line: string) => void;
}

export async function runCampaign(options: CampaignOptions): Promise<Tally> {
  const sizes = CAMPAIGN_MODES[options.mode];
  const tally = new Tally();
  const log = options.log ?? (() => {});
  const wanted = (section: string) => options.only === undefined || options.only.includes(section);
  if (wanted("fuzz")) {
    log(`fuzz: ${sizes.fuzz.lanes} lane(s) × ${sizes.fuzz.callsPerLane} calls`);
    await runFuzz({ ...sizes.fuzz, seed: options.seed }, tally);
  }
  if (wanted("frames")) {
    log(`frames: ${sizes.frames.frames} malformed frames, ${sizes.frames.oversized} oversized`);
    await runFrames({ ...sizes.frames, seed: options.seed }, tally);
  }
  if (wanted("faults")) {
    log(`faults: ${sizes.faults.rounds} round(s) of every fault`);
    await runFaults(sizes.faults, tally);
  }
  if (wanted("load")) {
    log(`load: ${sizes.load.clients} clients for ${sizes.load.seconds} s on one device, then a holder killed`);
    await runLoad({ ...sizes.load, seed: options.seed }, tally);
  }
  if (wanted("soak")) {
    log(`soak: ${sizes.soak.calls} mixed calls on one server`);
    await runSoak(sizes.soak, tally);
  }
  if (wanted("hardening")) {
    log("hardening: issue 18's defects tried again (secrets, planted files, --record, FIFOs, signals, a squatted lock directory)");
    await runHardening(tally);
  }
  return tally;
}
