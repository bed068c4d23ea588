/**
 * The campaign (scripts/campaign/) in its smoke size, one test per section, so every CI run proves the
 * reliability promises (a slow battery: `npm run test:slow`): each test names the rows of docs/oracle/reliability.md it checks. The
 * bounded CI size (≥ 10,000 fuzzed calls) runs as its own step in .ci/run (`npm run campaign -- --mode ci`).
 * A failure prints the campaign's table with the first violations.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { runCampaign } from "../../scripts/campaign/run.ts";

const ADB = process.env["ADB"] ?? "/usr/bin/adb";
const skip = existsSync(ADB) ? false : `the real adb client is not installed at ${ADB}`;
const SEED = 20261130;

async function section(name: string): Promise<void> {
  const tally = await runCampaign({ mode: "smoke", seed: SEED, only: [name] });
  assert.equal(tally.failed, 0, `\n${tally.table().join("\n")}`);
  assert.ok(tally.callsMade > 0, "the section made calls");
}

test(
  "fuzz: hostile arguments for every tool get typed envelopes or the due -32602, no stack trace, device commands only in their slots, one bounded audit line each (R3 R4 R5 R6 R7 R12 R13)",
  { skip, timeout: 180_000 },
  () => section("fuzz"),
);

test("frames: malformed and oversized JSON-RPC lines to serve --device sim are answered, the server keeps serving (R1 R2)", {
  skip,
  timeout: 120_000,
}, () => section("frames"));

test(
  "faults: every simulated fault gives its typed code, frees the lock and the session, and the next call succeeds (R8 R9 R18 R19 R20 R21 R22 R26)",
  { skip, timeout: 600_000 },
  () => section("faults"),
);

test(
  "load: 8 clients on one device get ok or EMULATOR_BUSY at once, never two sessions; a SIGKILLed holder leaves no adb child and no lock (R15 R16 R17)",
  { skip, timeout: 180_000 },
  () => section("load"),
);

test(
  "hardening: a typed password and a URL token in no answer or audit line, planted evidence neither listed nor served, a second --record refused, FIFOs refused at once, SIGHUP and SIGKILL of a session holder leave no session nor lock, a cancelled call audited cancelled, a squatted lock directory (root), password shapes blanked in the raw XML, recordings without secrets (R29 R30 R31 R32 R33 R34 R36 R37 R38 R48 R49 R50)",
  { skip, timeout: 300_000 },
  () => section("hardening"),
);

test("soak: mixed calls leave the sessions as they were, every evidence file whole and named, one audit line per call (R20 R22 R24)", {
  skip,
  timeout: 180_000,
}, () => section("soak"));
