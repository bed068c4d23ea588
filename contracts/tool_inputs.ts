/**
 * The argument schemas the tool declarations (tools.ts) share: strings are bounded, and nothing shaped
 * like a coordinate or a shell command is representable; and what of a call's arguments the audit log
 * and the flow reports may write down (typed text only as its length).
 */
import * as z from "zod";
import { PACKAGE_NAME_PATTERN } from "./package_name.ts";
import { ROLE_NAMES, SelectorSchema, TEXT_KEY_NAMES } from "./selector.ts";

export { PACKAGE_NAME_PATTERN } from "./package_name.ts";

/** An Android application id: dot-separated Java identifiers, at least two segments (also what adb_arguments.ts lets reach adb). */
export const PackageNameSchema = z.string().max(255).regex(PACKAGE_NAME_PATTERN);

/**
 * The packages the harness acts through on the device (Appium's UiAutomator2 server and its instrumentation, Appium
 * Settings): clearing or force-stopping one kills the UI session the act runs in, so app_clear and app_launch refuse them.
 */
export const HARNESS_HELPER_PACKAGES = [
  "io.appium.uiautomator2.server",
  "io.appium.uiautomator2.server.test",
  "io.appium.settings",
] as const;

/** A package an act may stop or clear: an application id that is not one of HARNESS_HELPER_PACKAGES. */
/** app_install's APK: a path on the harness's machine (checked as a file when the call runs, src/adapters/apk/apk_file.ts). */
export const ApkPathSchema = z.string().min(1).max(4096).refine((path) => !path.includes("\0"), { message: "a path has no NUL character" });

export const StoppablePackageSchema = PackageNameSchema.refine(
  (name) => !(HARNESS_HELPER_PACKAGES as readonly string[]).includes(name),
  {
    message: `${HARNESS_HELPER_PACKAGES.join(", ")} are the helpers the harness acts through: stopping or clearing one ` +
      "ends the UI session; name the app under test",
  },
);

/** An opaque session id as `ui_session_open` issues it. */
export const SessionIdSchema = z.string().max(64).regex(/^[A-Za-z0-9_-]+$/);
/** The same check, published as a plain string (eleven tools take one: tools/list stays small; the id is never typed by hand). */
export const PublishedSessionIdSchema = z.string().pipe(SessionIdSchema);

/**
 * The device a call is for (issue 26): a serial, or a model or device name as `adb devices -l` prints it, matched
 * case-insensitively (src/adapters/adb/resolve_device.ts); omitted, the server's device. Bounded, no control character.
 */
// deno-lint-ignore no-control-regex
export const DeviceArgumentSchema = z.string().min(1).max(128).regex(/^[^\u0000-\u001f\u007f]*$/);
/** The same check, published as a plain string (seventeen tools take one: device_status's description says what it is). */
export const PublishedDeviceSchema = z.string().pipe(DeviceArgumentSchema);

/** Text to type: non-empty, bounded, newlines and tabs allowed, other control characters refused. */
// deno-lint-ignore no-control-regex
export const TypedTextSchema = z.string().min(1).max(2000).regex(/^[^\u0000-\u0008\u000b-\u001f\u007f]*$/);

/**
 * The selector as published in tools/list: its keys (from the one list) without the per-key limits
 * SelectorSchema enforces, so twelve tools stay small.
 */
const keyProperties = {
  ...Object.fromEntries(TEXT_KEY_NAMES.map((key) => [key, { type: "string" }])),
  role: { enum: [...ROLE_NAMES] },
};
const selectorProperties = { ...keyProperties, within: { type: "object" }, index: { type: "integer", minimum: 0 } };
export const PublishedSelectorSchema = SelectorSchema.meta({
  description: "As ui_get_tree offers it: one key, optional within (ancestor key) and index. No coordinates.",
  properties: selectorProperties,
});

/**
 * Another argument that is a selector (ui_scroll's container and until): validated as strictly, published
 * as an object its description calls a selector (the keys are listed once, at `selector`: the catalog stays small).
 */
export function publishedSelector(description: string) {
  return SelectorSchema.meta({ description, properties: {}, additionalProperties: true });
}

/**
 * A deep link for `app_open_url`: `scheme:rest`, at most URL_MAX_LENGTH characters, only URL characters
 * that no shell reads specially (RFC 3986's unreserved and `:/?#[]@!&+,=`, `%` as `%XX`; so no whitespace,
 * control characters, quotes, `$`, `;`, `(`, `)`, `*`), and never a scheme that reaches local files,
 * providers, scripts or raw intents (REFUSED_URL_SCHEMES).
 */
export const URL_MAX_LENGTH = 2048;
export const REFUSED_URL_SCHEMES = [
  "file",
  "content",
  "android.resource", // ContentResolver's third local scheme: an app's raw resources, opened as a file
  "javascript",
  "intent",
  "android-app",
  "data",
  "about",
  "vbscript",
] as const;
const URL_SHAPE = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!&+,=]|%[0-9A-Fa-f]{2})+$/;
export const UrlSchema = z.string()
  .max(URL_MAX_LENGTH, { message: `a URL is at most ${URL_MAX_LENGTH} characters` })
  .regex(URL_SHAPE, {
    message: "send scheme:rest (e.g. https://… or myapp://…) with only URL characters: no spaces or control characters, " +
      "percent-encode quotes, $ ; ( ) * and anything else",
  })
  .refine((url) => !(REFUSED_URL_SCHEMES as readonly string[]).includes(url.slice(0, url.indexOf(":")).toLowerCase()), {
    message: `the schemes ${REFUSED_URL_SCHEMES.join(", ")} are refused; open an http(s) or app link`,
  });

/** ui_wait's bounds: how long it waits when `timeout_ms` is absent, and the most it accepts (below the action timeout). */
export const WAIT_DEFAULTS = { timeoutMs: 5000, maxTimeoutMs: 30_000 } as const;

/** ui_wait's input: exactly one of `visible` / `gone` (a selector), and an optional bounded `timeout_ms`. */
export const WaitInputSchema = z.strictObject({
  visible: publishedSelector("Selector to wait for.").optional(),
  gone: publishedSelector("Selector to wait out.").optional(),
  // The bound before the integer check, so that 1e308 is told "<=30000", not "<=9007199254740991".
  timeout_ms: z.number().min(0).max(WAIT_DEFAULTS.maxTimeoutMs).int().optional()
    .meta({ description: `ms, default ${WAIT_DEFAULTS.timeoutMs}` }),
  device: PublishedDeviceSchema.optional(),
}).refine((args) => (args.visible === undefined) !== (args.gone === undefined), {
  message: "give exactly one of visible (wait until it is on screen) or gone (wait until it is not)",
});

/** Arguments whose value is secret (typed text): the audit log keeps only their length. */
const REDACTED_ARGUMENTS = new Set(["text"]);

/** Arguments that are URLs (app_open_url's `url`): written down by `redactUrl`. */
const URL_ARGUMENTS = new Set(["url"]);

/**
 * What of a call's arguments may be written down: everything as sent, except typed text, which becomes
 * `{redacted_length: N}` (characters; 0 for a value that is not a string), and a URL, which keeps only
 * its scheme, host and path (`redactUrl`; a URL that is not a string is `{redacted_length: 0}`).
 * Idempotent: an already redacted value is kept. Non-object arguments become `{invalid: <type>}`, none `{}`.
 * With `known` (the tool's argument names), an argument not named there keeps a number, boolean or null as sent
 * and is otherwise redacted like typed text: a refused call's stray key (`value`, `password` for `text`) is often
 * the secret itself.
 */
export function redactArguments(raw: unknown, known?: ReadonlySet<string>): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) return { invalid: Array.isArray(raw) ? "array" : typeof raw };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    // defineProperty: a `__proto__` key stays a key (assignment would set the prototype and lose it).
    Object.defineProperty(out, key, {
      value: REDACTED_ARGUMENTS.has(key)
        ? redacted(value)
        : known !== undefined && !known.has(key)
        ? stray(value)
        : URL_ARGUMENTS.has(key)
        ? (typeof value === "string" ? redactUrl(value) : redacted(value))
        : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function stray(value: unknown): unknown {
  return value === null || typeof value === "number" || typeof value === "boolean" ? value : redacted(value);
}

function redacted(value: unknown): { redacted_length: number } {
  if (typeof value === "string") return { redacted_length: [...value].length };
  const length = (value as { redacted_length?: unknown } | null)?.redacted_length;
  const alreadyRedacted = typeof value === "object" && value !== null && Object.keys(value).length === 1 &&
    typeof length === "number" && Number.isInteger(length) && length >= 0;
  return { redacted_length: alreadyRedacted ? length : 0 };
}

/** RFC 3986 appendix B: scheme, `//authority`, path, `?query`, `#fragment`. */
const URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*:)(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
const URL_MARKER = /^<redacted \d+ chars>$/;
/**
 * The schemes WHATWG URL calls special (Chrome, the usual handler of a web link's VIEW intent): any run of
 * slashes after the scheme, none included, starts the authority, so `https:/ann:pw@host/` carries userinfo.
 */
const WEB_SCHEMES = new Set(["http:", "https:", "ws:", "wss:", "ftp:"]);
const WEB_URL_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*:)(\/*[^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/**
 * A URL as it may be written down (audit log, reports, logs): scheme, host, port and path as sent; the
 * userinfo, query and fragment (where tokens live) each replaced by `<redacted N chars>` (N characters), e.g.
 * `https://shop.example/item?<redacted 23 chars>`. A text that is not a URL is one marker. Idempotent. A web
 * scheme's authority is read as browsers read it, after any number of slashes (WEB_SCHEMES).
 */
export function redactUrl(url: string): string {
  const web = WEB_URL_PARTS.exec(url);
  const parts = web !== null && WEB_SCHEMES.has(web[1]!.toLowerCase())
    ? web
    : URL_PARTS.exec(url)?.map((part, i) => i === 2 && part !== undefined ? `//${part}` : part);
  if (parts === null || parts === undefined) return hidden(url);
  const [, scheme, slashesAndAuthority, path, query, fragment] = parts;
  let out = scheme!;
  if (slashesAndAuthority !== undefined) {
    const authority = slashesAndAuthority.replace(/^\/*/, "");
    const at = authority.lastIndexOf("@");
    out += slashesAndAuthority.slice(0, slashesAndAuthority.length - authority.length) +
      (at === -1 ? authority : `${hidden(authority.slice(0, at))}@${authority.slice(at + 1)}`);
  }
  out += path;
  if (query !== undefined) out += `?${hidden(query)}`;
  if (fragment !== undefined) out += `#${hidden(fragment)}`;
  return out;
}

/** Whether `redactUrl` hides something of this URL (a userinfo, a query or a fragment that is not empty). */
export function urlHasSecretParts(url: string): boolean {
  return redactUrl(url) !== url;
}

function hidden(part: string): string {
  return part === "" || URL_MARKER.test(part) ? part : `<redacted ${[...part].length} chars>`;
}
