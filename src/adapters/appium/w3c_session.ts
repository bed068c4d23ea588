/**
 * One W3C WebDriver session over `fetch`: the dozen protocol commands the UiDriver sends to Appium 3 (or to
 * a UiAutomator2 server directly), and nothing else. It replaces webdriverio's `remote()`, whose dependency
 * chain (@wdio/utils) installs browser drivers (edgedriver, geckodriver) with install scripts the harness never
 * needs. Requests and answers are the ones webdriverio sent and read: `POST /session` with
 * `{capabilities: {alwaysMatch, firstMatch: [{}]}}`, `{value}` answers, a W3C error as an Error whose `name` is
 * the error code (`invalid session id`, `no such element`…) and whose message is the server's; a request that
 * gets no answer within `requestTimeoutMs` fails as a `TimeoutError`, and nothing listening as
 * `Unable to connect to URL (CODE)`: appium_failure.ts reads those. No retries.
 */

export interface W3cSessionOptions {
  /** The server's base URL (scheme, host, port, path); credentials in it are not sent (see `authorization`). */
  url: URL;
  /** An `Authorization` header sent with every request (a device cloud's Basic auth: appium_url.ts). */
  authorization?: string;
  capabilities: Record<string, unknown>;
  /** Each request's own limit, in ms. */
  requestTimeoutMs: number;
}

export interface W3cSession {
  readonly sessionId: string;
  getPageSource(): Promise<string>;
  /** Element references (`{"element-6066-…": id}`). */
  findElements(using: string, value: string): Promise<unknown[]>;
  elementClick(id: string): Promise<unknown>;
  elementClear(id: string): Promise<unknown>;
  elementSendKeys(id: string, text: string): Promise<unknown>;
  executeScript(script: string, args: unknown[]): Promise<unknown>;
  back(): Promise<unknown>;
  updateSettings(settings: Record<string, unknown>): Promise<unknown>;
  getSettings(): Promise<unknown>;
  deleteSession(): Promise<unknown>;
}

type Send = (method: "GET" | "POST" | "DELETE", path: string, body?: unknown) => Promise<unknown>;

/** Starts a session; rejects with the server's W3C error, a TimeoutError or a connection failure. */
export async function newW3cSession(options: W3cSessionOptions): Promise<W3cSession> {
  const send = sender(options.url, options.requestTimeoutMs, options.authorization);
  const started = await send("POST", "/session", { capabilities: { alwaysMatch: options.capabilities, firstMatch: [{}] } });
  const sessionId = (started as { sessionId?: unknown } | null)?.sessionId;
  if (typeof sessionId !== "string" || sessionId === "") {
    throw Object.assign(new Error(`The server at ${base(options.url)} started no session (its answer names no sessionId).`), {
      name: "session not created",
    });
  }
  const at = `/session/${encodeURIComponent(sessionId)}`;
  const element = (id: string) => `${at}/element/${encodeURIComponent(id)}`;
  return {
    sessionId,
    getPageSource: async () => String(await send("GET", `${at}/source`)),
    findElements: async (using, value) => {
      const found = await send("POST", `${at}/elements`, { using, value });
      return Array.isArray(found) ? found : [found];
    },
    elementClick: (id) => send("POST", `${element(id)}/click`, {}),
    elementClear: (id) => send("POST", `${element(id)}/clear`, {}),
    elementSendKeys: (id, text) => send("POST", `${element(id)}/value`, { text }),
    executeScript: (script, args) => send("POST", `${at}/execute/sync`, { script, args }),
    back: () => send("POST", `${at}/back`, {}),
    updateSettings: (settings) => send("POST", `${at}/appium/settings`, { settings }),
    getSettings: () => send("GET", `${at}/appium/settings`),
    deleteSession: () => send("DELETE", at),
  };
}

function base(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
}

function sender(url: URL, timeoutMs: number, authorization?: string): Send {
  const root = base(url);
  return async (method, path, body) => {
    const target = `${root}${path}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(target, {
        method,
        headers: {
          ...(body === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
          ...(authorization === undefined ? {} : { authorization }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw requestFailure(error, target, timeoutMs);
    }
    let parsed: { value?: unknown } | undefined;
    try {
      parsed = JSON.parse(text) as { value?: unknown };
    } catch {
      parsed = undefined;
    }
    const value = parsed?.value;
    const failure = value as { error?: unknown; message?: unknown } | null | undefined;
    if (typeof failure?.error === "string") {
      throw Object.assign(new Error(typeof failure.message === "string" ? failure.message : failure.error), { name: failure.error });
    }
    if (!response.ok) {
      throw Object.assign(new Error(`${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 200)}`), {
        name: parsed === undefined ? "unknown error" : "unknown command",
      });
    }
    return value ?? null;
  };
}

/** fetch's failures said as appium_failure.ts reads them: a timeout, or nothing listening (with the system's code). */
function requestFailure(error: unknown, target: string, timeoutMs: number): Error {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError") {
    return Object.assign(new Error(`The request ${target} timed out after ${timeoutMs} ms.`), { name: "TimeoutError" });
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : String(error);
  return new Error(`Unable to connect to ${target} (${code}).`);
}
