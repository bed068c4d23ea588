/**
 * The Appium URL's two faces (issue 25 item 2). Device clouds give `https://user:key@host:443/wd/hub`: the
 * credentials are used (webdriverio's `user`/`key`, Basic auth on the new-session request; doctor's probe sends
 * them as Basic auth) and never said. `shownAppiumUrl` is what every message, answer, report and log prints:
 * scheme, host and port only (no credentials, path, query or fragment). Pure: no I/O.
 */

/** The URL as it may be printed: `http://host:4723`; a text that does not parse is said as a marker. */
export function shownAppiumUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "<the Appium URL, which does not parse>";
  }
}

/** Where to reach Appium: the URL without its credentials (path kept), and the credentials, decoded. */
export interface AppiumTarget {
  /** `scheme://host:port/path`, no userinfo: what a lock note records and requests are sent to. */
  endpoint: string;
  protocol: "http" | "https";
  /** Without IPv6 brackets. */
  hostname: string;
  port: number;
  /** "/" when the URL has none. */
  path: string;
  credentials?: { user: string; key: string };
}

/** Throws a TypeError for a text that is not a URL (config.ts has already refused those). */
export function appiumTarget(url: string): AppiumTarget {
  const parsed = new URL(url);
  const credentials = parsed.username === "" && parsed.password === ""
    ? undefined
    : { user: decodeURIComponent(parsed.username), key: decodeURIComponent(parsed.password) };
  parsed.username = "";
  parsed.password = "";
  const https = parsed.protocol === "https:";
  return {
    endpoint: parsed.href.replace(/\/+$/, ""),
    protocol: https ? "https" : "http",
    hostname: parsed.hostname.replace(/^\[|\]$/g, ""),
    port: Number(parsed.port || (https ? 443 : 80)),
    path: parsed.pathname === "" ? "/" : parsed.pathname,
    ...(credentials === undefined ? {} : { credentials }),
  };
}

/** The `Authorization` header of HTTP Basic auth for these credentials. */
export function basicAuthorization(credentials: { user: string; key: string }): string {
  return `Basic ${Buffer.from(`${credentials.user}:${credentials.key}`, "utf8").toString("base64")}`;
}
