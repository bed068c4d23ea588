/**
 * The real HttpClient over the runtime's `fetch` (Node 20, Deno 2, Bun): one GET (or DELETE) bounded by the
 * deadline and the caller's signal, the body read as text (at most 1 MiB), every failure as data —
 * ECONNREFUSED is "refused", the deadline "timeout", the caller's abort "aborted", the rest "unreachable".
 * Credentials in the URL (a device cloud's Appium URL) are sent as HTTP Basic auth: fetch refuses a URL that
 * holds them ("cannot be constructed from a URL that includes credentials"), and no message says them.
 */
import { appiumTarget, basicAuthorization } from "../appium_url.ts";
import type { HttpAnswer, HttpClient, HttpDeleteClient, HttpFailureReason } from "../ports/http_client.ts";

const MAX_BODY_CHARS = 1024 * 1024;

export function createFetchHttpClient(): HttpClient & HttpDeleteClient {
  return {
    get: (url, options) => request("GET", url, options),
    delete: (url, options) => request("DELETE", url, options),
  };
}

async function request(method: string, url: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<HttpAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  try {
    const { endpoint, credentials } = appiumTarget(url);
    const headers: Record<string, string> = { accept: "application/json" };
    if (credentials !== undefined) headers["authorization"] = basicAuthorization(credentials);
    const response = await fetch(credentials === undefined ? url : endpoint, { method, signal, headers, redirect: "follow" });
    const body = (await response.text()).slice(0, MAX_BODY_CHARS);
    return { kind: "response" as const, status: response.status, body, durationMs: elapsed() };
  } catch (error) {
    const reason: HttpFailureReason = deadline.aborted ? "timeout" : options.signal?.aborted ? "aborted" : refusedOrUnreachable(error);
    const message = reason === "timeout" ? `no answer within ${options.timeoutMs} ms` : describe(error);
    return { kind: "failure" as const, reason, message, durationMs: elapsed() };
  }
}

function refusedOrUnreachable(error: unknown): HttpFailureReason {
  return /ECONNREFUSED|Connection refused/i.test(describe(error)) ? "refused" : "unreachable";
}

/** Node's fetch says only "fetch failed" and keeps the socket error in `cause`; Deno puts it in the message. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    const { message, code } = e as { message?: unknown; code?: unknown };
    if (typeof message === "string" && message !== "") parts.push(message);
    if (typeof code === "string" && !parts.some((p) => p.includes(code))) parts.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return parts.join(": ") || String(error);
}
