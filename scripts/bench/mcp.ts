/**
 * Bench section "mcp": the size in characters of what a model reads of tools/list (names, titles,
 * descriptions, input schemas, annotations: target under 12,000), of the output schemas (for programs) and of
 * the whole answer (target under 30,000), for all declared tools and those published now; and the harness's own overhead per observe
 * call against the simulated device: wall time of the call minus the time adb processes were running
 * (overlapping adb runs counted once), median and p95 over the repetitions; then the same calls with the
 * simulator's device latency profile (`--latency device`: a real phone's waits, docs/simulated-device.md).
 */
import { AVAILABLE_TOOL_NAMES, TOOL_CONTRACT_BY_NAME, TOOL_CONTRACTS, type ToolName } from "../../contracts/tools.ts";
import { createNodeProcessRunner } from "../../src/adapters/node_process_runner.ts";
import { publishedTool } from "../../src/mcp/server.ts";
import type { ProcessRunner } from "../../src/ports/process_runner.ts";
import { startSimDevice } from "../../src/sim/mod.ts";
import { openBenchHarness, simAppiumDrivers } from "./in_memory_harness.ts";
import { SCREENSHOT_TARGET_MS } from "./png.ts";
import { type BenchIO, type BenchSection, median, p95, unionLength } from "./section.ts";

export const TOOLS_LIST_TARGET_CHARS = 12_000;
export const TOOLS_LIST_FULL_TARGET_CHARS = 30_000;
/** Observe tools that need arguments: ui_wait waits for a text that is not on any screen to be gone (it holds at once). */
const OBSERVE_ARGUMENTS: Partial<Record<ToolName, Record<string, unknown>>> = { ui_wait: { gone: { text: "bench: not on any screen" } } };
/** Read-only tools that are not one read: screen_record is a start and then a stop (its own tests time it). */
const NOT_ONE_READ: ReadonlySet<ToolName> = new Set(["screen_record"]);

export const mcpSection: BenchSection = {
  name: "mcp: tools/list size, and harness overhead per observe call against the simulated device",
  async run(io: BenchIO) {
    const all = toolsListChars(TOOL_CONTRACTS.map((t) => t.name));
    const published = toolsListChars([...AVAILABLE_TOOL_NAMES]);
    const target = (value: number, limit: number) => `target < ${limit}: ${value < limit ? "met" : "MISSED"}`;
    io.print(
      `tools/list, all ${TOOL_CONTRACTS.length} declared tools: ${all.full} characters in full (${
        target(all.full, TOOLS_LIST_FULL_TARGET_CHARS)
      }); a model reads ${all.read} (${target(all.read, TOOLS_LIST_TARGET_CHARS)}); output schemas ${all.output}`,
    );
    const now = AVAILABLE_TOOL_NAMES.length;
    io.print(
      `tools/list, the ${now} tools published now: ${published.full} in full; a model reads ${published.read}; output schemas ${published.output}`,
    );
    io.print("");
    await observeOverhead(io, "none", io.repetitions);
    io.print("");
    await observeOverhead(io, "device", Math.min(io.repetitions, 5));
  },
};

/** The tools/list answer's characters: in full, what a model reads (everything but the output schemas), the output schemas. */
function toolsListChars(names: ToolName[]): { full: number; read: number; output: number } {
  const tools = names.map(publishedTool);
  return {
    full: JSON.stringify({ tools }).length,
    read: JSON.stringify({ tools: tools.map(({ outputSchema: _programs, ...rest }) => rest) }).length,
    output: JSON.stringify(tools.map((tool) => tool.outputSchema)).length,
  };
}

/** A runner that records when each adb process ran, so overlapping runs can be counted once. */
function timedRunner(inner: ProcessRunner, intervals: [number, number][]): ProcessRunner {
  return {
    async run(program, args, options) {
      const start = performance.now();
      try {
        return await inner.run(program, args, options);
      } finally {
        intervals.push([start, performance.now()]);
      }
    },
  };
}

async function observeOverhead(io: BenchIO, latency: "none" | "device", repetitions: number): Promise<void> {
  const sim = await startSimDevice({ latency });
  const intervals: [number, number][] = [];
  const bench = await openBenchHarness(sim, {
    folder: "amh-bench-",
    runner: timedRunner(createNodeProcessRunner(), intervals),
    drivers: simAppiumDrivers(sim, 90),
    idleTimeoutMs: 60_000,
    warmIdleTimeoutMs: 0, // every act its own session, as measured before the warm device
    actionTimeoutMs: 90_000,
  });
  try {
    io.print(
      `simulated device ${sim.device.serial} (latency profile ${latency}), real adb client, in-memory MCP transport, ${repetitions} calls per tool (ms)`,
    );
    io.print("tool            total med/p95    in adb med/p95   harness med/p95   adb runs/call");
    const screenshotTotals: number[] = [];
    for (
      const tool of AVAILABLE_TOOL_NAMES.filter((name) => TOOL_CONTRACT_BY_NAME[name].annotations.readOnlyHint && !NOT_ONE_READ.has(name))
    ) {
      const args = OBSERVE_ARGUMENTS[tool] ?? {};
      await bench.client.callTool({ name: tool, arguments: args }); // warm-up
      const totals: number[] = [];
      const inAdb: number[] = [];
      const harness: number[] = [];
      let runs = 0;
      for (let i = 0; i < repetitions; i++) {
        intervals.length = 0;
        const start = performance.now();
        const result = await bench.client.callTool({ name: tool, arguments: args });
        const total = performance.now() - start;
        if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.structuredContent)}`);
        const adbMs = unionLength(intervals);
        runs += intervals.length;
        totals.push(total);
        inAdb.push(adbMs);
        harness.push(total - adbMs);
      }
      const pair = (v: number[]) => `${median(v).toFixed(1)}/${p95(v).toFixed(1)}`.padEnd(17);
      io.print(`${tool.padEnd(16)}${pair(totals)}${pair(inAdb)}${pair(harness)}${(runs / repetitions).toFixed(1)}`);
      if (tool === "ui_screenshot") screenshotTotals.push(...totals);
    }
    if (latency === "none" && screenshotTotals.length > 0) {
      const ms = median(screenshotTotals);
      const met = ms < SCREENSHOT_TARGET_MS ? "met" : "MISSED";
      io.print(
        `ui_screenshot against the simulated device: ${
          ms.toFixed(1)
        } ms median (target < ${SCREENSHOT_TARGET_MS} ms, quiet machine: ${met})`,
      );
    }
  } finally {
    await bench.close();
  }
}
