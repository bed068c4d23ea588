/**
 * The JUnit XML of a flow report, as CI systems ingest it unchanged: `testsuites` > one `testsuite` per
 * device > one `testcase` per step (time in seconds), a failing step carrying `<failure message type>`
 * with the reason, what was expected and what the screen offered; steps after it `<skipped/>`. A flow
 * that failed before its first step (device, lock, session) gets a `setup` testcase with the failure. Pure.
 */
import { FLOW_EXIT_MEANINGS } from "../../contracts/flow.ts";
import { deviceName, type FlowReport } from "./flow_report.ts";
import type { FlowRun, StepRecord } from "./flow_run.ts";

export function renderJunitReport(report: FlowReport): string {
  const suites = report.runs.map((run) => suite(report, run));
  const count = (f: (run: FlowRun) => number) => report.runs.reduce((sum, run) => sum + f(run), 0);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${attr(`flow ${report.flow.name}`)}" tests="${count((r) => cases(r).length)}" failures="${count(failures)}" ` +
    `errors="0" skipped="${count(skipped)}" time="${seconds(report.duration_ms)}">`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}

function suite(report: FlowReport, run: FlowRun): string {
  const device = deviceName(run);
  const classname = `flow.${report.flow.name}.${device}`;
  const lines = [
    `  <testsuite name="${attr(`${report.flow.name} on ${device}`)}" tests="${cases(run).length}" failures="${failures(run)}" errors="0" ` +
    `skipped="${skipped(run)}" time="${seconds(run.duration_ms)}" timestamp="${attr(run.started_at.replace(/Z$/, ""))}">`,
    `    <properties>`,
    property("device", device),
    property("device_description", run.device.description),
    property("simulated", String(run.device.simulated)),
    property("package_name", run.flow.package_name),
    property("outcome", run.outcome),
    property("exit_code", String(run.exit_code)),
    `    </properties>`,
  ];
  if (setupFailed(run)) {
    lines.push(`    <testcase name="setup" classname="${attr(classname)}" time="0">`);
    lines.push(failure(run.failure!.outcome, run.failure!.reason, run.failure!.reason));
    lines.push(`    </testcase>`);
  }
  for (const step of run.steps) lines.push(...testcase(step, classname, run));
  lines.push(`  </testsuite>`);
  return lines.join("\n");
}

function testcase(step: StepRecord, classname: string, run: FlowRun): string[] {
  const open = `    <testcase name="${attr(stepName(step))}" classname="${attr(classname)}" time="${seconds(step.duration_ms)}">`;
  if (step.outcome === "passed") return [open.replace(/>$/, "/>")];
  if (step.outcome === "skipped") {
    const why = setupFailed(run) ? "the flow failed before its steps" : "an earlier step failed";
    return [open, `      <skipped message="${attr(why)}"/>`, `    </testcase>`];
  }
  const details = [
    `step ${step.index} (${step.tool}) ${step.outcome}: ${step.reason ?? ""}`,
    step.expected === undefined ? "" : `expected: ${step.expected}`,
    run.failure?.step === step.index && run.failure.screen_offers !== undefined ? `screen: ${run.failure.screen_offers}` : "",
    step.evidence_id === null ? "" : `evidence: ${step.evidence_id}`,
  ].filter((line) => line !== "").join("\n");
  return [open, failure(step.outcome, step.reason ?? step.outcome, details), `    </testcase>`];
}

function failure(outcome: string, message: string, details: string): string {
  const meaning = FLOW_EXIT_MEANINGS[outcome as keyof typeof FLOW_EXIT_MEANINGS] ?? outcome;
  return `      <failure message="${attr(message)}" type="${attr(outcome)}">${text(`${details}\n(${meaning})`)}</failure>`;
}

/** `03 ui_tap {"text":"Network & internet"}`: the number keeps CI listings in flow order. */
export function stepName(step: StepRecord): string {
  const args = Object.keys(step.args).length === 0 ? "" : ` ${JSON.stringify(step.args)}`;
  return `${String(step.index).padStart(2, "0")} ${step.tool}${args}`;
}

function cases(run: FlowRun): unknown[] {
  return setupFailed(run) ? [null, ...run.steps] : run.steps;
}

function failures(run: FlowRun): number {
  return run.steps.filter((s) => s.outcome !== "passed" && s.outcome !== "skipped").length + (setupFailed(run) ? 1 : 0);
}

function skipped(run: FlowRun): number {
  return run.steps.filter((s) => s.outcome === "skipped").length;
}

function setupFailed(run: FlowRun): boolean {
  return run.failure !== undefined && run.failure.step === undefined;
}

function property(name: string, value: string): string {
  return `      <property name="${attr(name)}" value="${attr(value)}"/>`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// XML 1.0 allows tab, newline, carriage return and characters from U+0020; anything else is dropped.
// deno-lint-ignore no-control-regex
const NOT_XML = /[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

function text(value: string): string {
  return value.replace(NOT_XML, "").replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function attr(value: string): string {
  return text(value).replaceAll('"', "&quot;").replaceAll("\n", "&#10;").replaceAll("\r", "&#13;").replaceAll("\t", "&#9;");
}
