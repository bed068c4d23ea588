/**
 * Ends the Appium session a dead lock holder left (a server killed by SIGKILL cannot delete its own): one
 * bounded `DELETE <url>/session/<id>`, best effort, logged on stderr, never throwing. Only a recorded id
 * of a plain shape, on a recorded http(s) URL whose host is a loopback or the configured APPIUM_URL's (the
 * lock notes no credentials: those of APPIUM_URL go with a DELETE to its host, as Basic auth).
 */
import { appiumTarget } from "../../appium_url.ts";
import type { HttpDeleteClient } from "../../ports/http_client.ts";
import type { Logger } from "../../ports/logger.ts";
import type { LockHolder } from "./device_lock.ts";

export const STALE_SESSION_DELETE_MS = 5000;

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export interface StaleSessionOptions {
  http: HttpDeleteClient;
  logger: Logger;
  /** The APPIUM_URL this server uses: its host is allowed besides a loopback. */
  appiumUrl: string;
}

/** The DELETE URL for a holder's noted session, or null (with why) when it is absent or not allowed. */
export function staleSessionUrl(
  holder: Pick<LockHolder, "appium_url" | "appium_session_id">,
  appiumUrl: string,
): { url: string } | { refused: string } | null {
  const { appium_url: recorded, appium_session_id: id } = holder;
  if (recorded === undefined && id === undefined) return null;
  if (typeof recorded !== "string" || typeof id !== "string" || !SESSION_ID.test(id)) {
    return { refused: "the noted session id or URL is malformed" };
  }
  let url: URL;
  try {
    url = new URL(recorded);
  } catch {
    return { refused: "the noted Appium URL does not parse" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { refused: `the noted Appium URL's scheme ${url.protocol} is not http(s)` };
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    return { refused: "the noted Appium URL carries credentials or a query" };
  }
  const configured = safeHost(appiumUrl);
  if (!LOOPBACK.has(url.hostname) && url.host !== configured) {
    return { refused: `the noted Appium host ${url.host} is neither a loopback nor APPIUM_URL's` };
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, "")}/session/${id}` };
}

export function createStaleSessionEnder(options: StaleSessionOptions): (holder: LockHolder) => Promise<void> {
  return async (holder) => {
    const target = staleSessionUrl(holder, options.appiumUrl);
    if (target === null) return;
    if ("refused" in target) {
      options.logger.warn(`the dead lock holder ${holder.pid}'s Appium session was not ended: ${target.refused}`);
      return;
    }
    const answer = await options.http.delete(withCredentials(target.url, options.appiumUrl), { timeoutMs: STALE_SESSION_DELETE_MS });
    const how = answer.kind === "response" ? `HTTP ${answer.status}` : `${answer.reason}: ${answer.message}`;
    options.logger.info(`ended the Appium session ${holder.appium_session_id} left by dead process ${holder.pid} (${how})`);
  };
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** `url` with APPIUM_URL's credentials when it is on APPIUM_URL's host (the HTTP client sends them as Basic auth). */
function withCredentials(url: string, appiumUrl: string): string {
  try {
    const { credentials } = appiumTarget(appiumUrl);
    const target = new URL(url);
    if (credentials === undefined || target.host !== new URL(appiumUrl).host) return url;
    target.username = encodeURIComponent(credentials.user);
    target.password = encodeURIComponent(credentials.key);
    return target.href;
  } catch {
    return url;
  }
}
