/**
 * Port: one HTTP GET with a deadline, answered as data — the status and body text, or why no answer
 * came (connection refused, timeout, cancelled, unreachable). Never throws; used by `doctor` to ask an
 * Appium server (or a Grid, or a UiAutomator2 server) for its `/status`.
 */
export type HttpFailureReason = "refused" | "timeout" | "aborted" | "unreachable";

export type HttpAnswer =
  | { kind: "response"; status: number; body: string; durationMs: number }
  | { kind: "failure"; reason: HttpFailureReason; message: string; durationMs: number };

export interface HttpClient {
  get(url: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<HttpAnswer>;
}

/** One HTTP DELETE with a deadline, answered as data like `get` (the device lock ends a dead owner's Appium session). */
export interface HttpDeleteClient {
  delete(url: string, options: { timeoutMs: number }): Promise<HttpAnswer>;
}
