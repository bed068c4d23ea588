/**
 * What answers at the Appium URL, from its `GET /status` (checks 6 and 7 both ask): an Appium server
 * (`value.build.version`), a Selenium Grid (`value.nodes[].slots[].stereotype`), or a UiAutomator2
 * server itself (the on-device server, or the simulated device's with `--device sim`); else nothing,
 * or something that is not WebDriver. `classifyStatus` is pure; `askStatus` goes through the HttpClient port.
 */
import type { HttpFailureReason } from "../ports/http_client.ts";
import type { CheckBudget, DoctorInputs } from "./types.ts";

export type AppiumStatus =
  | { kind: "appium"; ready: boolean; version: string | null; message: string }
  | { kind: "grid"; ready: boolean; version: string | null; message: string; nodes: number; automationNames: string[] }
  | { kind: "uiautomator2"; ready: boolean; message: string; simulated: boolean }
  | { kind: "unreachable"; reason: HttpFailureReason; message: string }
  | { kind: "not-webdriver"; status: number; excerpt: string };

export function statusUrl(appiumUrl: string): string {
  return `${appiumUrl.replace(/\/+$/, "")}/status`;
}

export async function askStatus(inputs: DoctorInputs, budget: CheckBudget): Promise<AppiumStatus> {
  const answer = await inputs.http.get(statusUrl(inputs.config.appiumUrl), budget);
  if (answer.kind === "failure") return { kind: "unreachable", reason: answer.reason, message: answer.message };
  return classifyStatus(answer.status, answer.body);
}

interface StatusValue {
  ready?: unknown;
  message?: unknown;
  build?: { version?: unknown };
  nodes?: unknown;
}

export function classifyStatus(httpStatus: number, body: string): AppiumStatus {
  let value: StatusValue | undefined;
  try {
    const parsed = JSON.parse(body) as { value?: StatusValue };
    if (typeof parsed === "object" && parsed !== null && typeof parsed.value === "object" && parsed.value !== null) value = parsed.value;
  } catch {
    // not JSON: reported below
  }
  if (value === undefined || httpStatus >= 400 && value.ready === undefined) {
    return { kind: "not-webdriver", status: httpStatus, excerpt: body.replace(/\s+/g, " ").trim().slice(0, 80) };
  }
  const ready = value.ready === true;
  const message = typeof value.message === "string" ? value.message : "";
  if (/^UiAutomator2 Server\b/i.test(message)) {
    return { kind: "uiautomator2", ready, message, simulated: /simulated/i.test(message) };
  }
  if (Array.isArray(value.nodes)) {
    const nodes = value.nodes as { version?: unknown; slots?: { stereotype?: Record<string, unknown> }[] }[];
    const names = new Set<string>();
    for (const node of nodes) {
      for (const slot of node.slots ?? []) {
        const name = slot.stereotype?.["appium:automationName"] ?? slot.stereotype?.["automationName"];
        if (typeof name === "string") names.add(name);
      }
    }
    const version = nodes.map((n) => n.version).find((v): v is string => typeof v === "string") ?? null;
    return { kind: "grid", ready, version, message, nodes: nodes.length, automationNames: [...names] };
  }
  const version = typeof value.build?.version === "string" ? value.build.version : null;
  // Appium 1's status (the old JSON wire protocol) has no `ready`: it answers only when it is.
  return { kind: "appium", ready: ready || value.ready === undefined && version !== null, version, message };
}

/** A URL whose host is this machine: only then can the local `appium` command speak for the server. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
    return host === "localhost" || host === "::1" || /^127\./.test(host) || host === "0.0.0.0";
  } catch {
    return false;
  }
}
