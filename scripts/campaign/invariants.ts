/**
 * What every answer and every device command must look like, whatever was sent. A tools/call answer is a
 * valid envelope (strict schema, code from the closed list, mirrored as text, isError = !ok, no stack
 * trace), or JSON-RPC -32602 exactly when the name is not a served tool or the arguments are not an object.
 * Every command the simulated device received is one of the closed list's shapes, and the only free text in
 * it sits in the slot it was validated for (a package name, the typed text, a deep link, an XPath by position).
 */
import { type Envelope, EnvelopeSchema } from "../../contracts/envelope.ts";
import { PACKAGE_NAME_PATTERN, UrlSchema } from "../../contracts/tool_inputs.ts";
import { AVAILABLE_TOOL_NAMES } from "../../contracts/tools.ts";
import { ADB_COMMANDS, RECORDING_PATH } from "../../src/adapters/adb/adb_commands.ts";
import { DEVICE_LOCK_DIRECTORY } from "../../src/adapters/adb/device_side_lock.ts";
import { END_MARKER_ARGS } from "../../src/adapters/adb/stream_end.ts";
import { MAX_FRAME_BYTES } from "../../src/mcp/stdio_transport.ts";
import { envelopeText } from "../../src/mcp/response.ts";
import type { LogEntry } from "../../src/sim/mod.ts";

export const SERVED = new Set<string>(AVAILABLE_TOOL_NAMES);
/** What a stack trace or a runtime's internals look like in text (client text a message quotes, such as a
 * `file:///` tool name, is not one). */
export const STACK_TRACE =
  /\n\s+at \S|\bat \S+ \((?:file|node):[^)]*:\d+:\d+\)|node:internal\/|\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b|Cannot read properties|is not a function/;

/** The request as sent (any JSON value may sit in name or arguments). */
export interface ToolCallParams {
  name: unknown;
  arguments?: unknown;
}

export type RawOutcome = { result: unknown } | { error: { code: number; message: string } };

export type Answer =
  | { kind: "envelope"; envelope: Envelope }
  | { kind: "protocol error"; code: number }
  | { kind: "timeout" }
  | { kind: "bad"; why: string };

/** Whether MCP prescribes a JSON-RPC error (not an envelope) for this call. */
export function wantsProtocolError(params: ToolCallParams): boolean {
  const args = params.arguments;
  const argsOk = args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args));
  return typeof params.name !== "string" || !SERVED.has(params.name) || !argsOk;
}

/** `frameBytes`: the size of the request line; over the transport's limit the answer is -32600. */
export function classifyAnswer(params: ToolCallParams, outcome: RawOutcome, frameBytes = 0): Answer {
  if ("error" in outcome) {
    const { code, message } = outcome.error;
    if (code === -32001) return { kind: "timeout" };
    if (STACK_TRACE.test(message)) return { kind: "bad", why: `stack trace in a protocol error: ${message}` };
    if (code === -32600 && frameBytes > MAX_FRAME_BYTES) return { kind: "protocol error", code };
    if (code === -32602 && wantsProtocolError(params)) {
      return message.length < 1000
        ? { kind: "protocol error", code }
        : { kind: "bad", why: `a ${message.length}-character protocol error` };
    }
    return { kind: "bad", why: `JSON-RPC ${code} ${message}` };
  }
  if (frameBytes > MAX_FRAME_BYTES) return { kind: "bad", why: `an answer to a ${frameBytes}-byte frame` };
  if (wantsProtocolError(params)) {
    return { kind: "bad", why: `an answer where -32602 was due: ${JSON.stringify(outcome.result).slice(0, 200)}` };
  }
  const r = outcome.result as { structuredContent?: unknown; content?: { type: string; text?: string }[]; isError?: boolean };
  const text = r?.content?.[0];
  if (text?.type !== "text" || typeof text.text !== "string") return { kind: "bad", why: "no text content" };
  const checked = EnvelopeSchema.safeParse(r.structuredContent);
  if (!checked.success) return { kind: "bad", why: `not an envelope: ${checked.error.message.slice(0, 200)}` };
  const envelope = checked.data;
  if (text.text !== envelopeText(envelope)) return { kind: "bad", why: "the text content does not tell structuredContent" };
  if (r.isError !== !envelope.ok) return { kind: "bad", why: `isError ${r.isError} with ok ${envelope.ok}` };
  if (envelope.tool !== params.name) return { kind: "bad", why: `envelope of ${envelope.tool} for a ${String(params.name)} call` };
  if (envelope.error !== null && STACK_TRACE.test(envelope.error.message)) {
    return { kind: "bad", why: `stack trace: ${envelope.error.message}` };
  }
  if (text.text.length > 2_000_000) return { kind: "bad", why: `a ${text.text.length}-character answer` };
  return { kind: "envelope", envelope };
}

const END = ` ${END_MARKER_ARGS.join(" ")}`;
/** A screen recording's file on the device (RECORDING_PATH), as one word, quoted or not. */
const RECORDING = String.raw`'?(${RECORDING_PATH.source.slice(1, -1)})'?`;
const SHELL_READS = [
  /^getprop ro\.(product\.model|build\.version\.sdk|android_mcp_harness\.simulated|sf\.lcd_density)$/,
  /^wm (size|density)$/,
  /^dumpsys (window (displays|windows|InputMethod)|input_method|activity activities)$/,
  /^pm list packages( -3)?$/,
  /^pidof screenrecord$/, // screen_record's stop waits until the device's screenrecord has finished its file
  new RegExp(`^rm -f ${RECORDING}$`), // ...then removes the file it read
];
/** The five reads of SHELL_READS in one shell, exactly as the closed list joins them (shell_sections.ts). */
const SCREEN_FACTS = ADB_COMMANDS.screenFacts().args.slice(1).join(" ");
const EXEC_OUT = [
  /^uiautomator 'dump'( '--compressed')? '\/dev\/tty'$/,
  /^screencap '-p'$/,
  // screen_record (screen_recordings.ts): a segment of at most 180 s at 4 Mbit/s into its own file, then that file read back.
  new RegExp(String.raw`^screenrecord '--time-limit' '([1-9]|[1-9][0-9]|1[0-7][0-9]|180)' '--bit-rate' '4000000' ${RECORDING}$`),
  new RegExp(`^cat ${RECORDING}$`),
];
const UIA2_FIXED = [
  /^list sessions$/, // the campaign's own look at GET /appium/sessions
  /^new session$/,
  /^get page source$/,
  /^find elements? xpath \/hierarchy(\/\*\[\d+\])+(\[@bounds="\[-?\d+,-?\d+\]\[-?\d+,-?\d+\]"\])?$/, // the rectangle check rides in the find
  /^(update|get) settings$/, // waitForIdleTimeout, set and read back at session start
  /^click$/,
  /^clear$/,
  /^back$/,
  /^delete session$/,
  /^execute script mobile: (isKeyboardShown|hideKeyboard|getCurrentPackage) \{\}$/,
  /^execute script mobile: scrollGesture \{"elementId":"[0-9a-f-]+","direction":"(up|down|left|right)","percent":[\d.]+\}$/,
  /^execute script mobile: (longClickGesture|doubleClickGesture) \{"elementId":"[0-9a-f-]+"\}$/,
  /^execute script mobile: performEditorAction \{"action":"(search|go|send|done)"\}$/,
  /^execute script mobile: pressKey \{"keycode":(3|66|67|187)\}$/,
  /^execute script mobile: openNotifications \{\}$/,
];

/** The device-side lock's lines (device_side_lock.ts), with a holder's note (JSON, one quoted word) or a token in their slots. */
const LOCK = DEVICE_LOCK_DIRECTORY.replaceAll(".", "\\.");
/** One single-quoted shell word (shellWord: each `'` inside as `'\''`). */
const QUOTED = String.raw`'((?:[^']|'\\'')*)'`;
const LOCK_LINES = [
  new RegExp(`^mkdir ${LOCK} && echo ${QUOTED} > ${LOCK}/holder ; cat ${LOCK}/holder$`),
  new RegExp(String.raw`^cat ${LOCK}/holder \| grep -c [0-9a-f-]{36} && echo ${QUOTED} > ${LOCK}/holder$`),
  new RegExp(String.raw`^cat ${LOCK}/holder \| grep -c [0-9a-f-]{36} && rm -r ${LOCK}$`),
  new RegExp(`^rmdir ${LOCK}$`),
];

/** Whether an adb command is the device lock's own bookkeeping (never the app's state), its note a JSON object. */
export function isDeviceLockLine({ source, command }: LogEntry): boolean {
  if (source !== "adb" || !command.endsWith(END)) return false;
  const shell = command.slice(0, -END.length);
  return LOCK_LINES.some((p) => {
    const match = p.exec(shell);
    if (match === null) return false;
    const note = match[1]?.replaceAll("'\\''", "'");
    return note === undefined || (note.startsWith("{") && typeof safeJson(note) === "object");
  });
}

/** Codes only validation gives: the call was refused before any device command. */
const REFUSED_BEFORE_DEVICE = new Set(["INVALID_TEXT", "INVALID_PACKAGE", "INVALID_SCROLL_DIRECTION"]);
/** Codes also given after a read (a selector that names a non-input, append on a password that holds text, a
 * timeout the call's limit cannot hold): the device may have been read, never changed. */
const REFUSED_BEFORE_CHANGE = new Set(["INVALID_SELECTOR", "INVALID_ARGUMENT"]);
const UIA2_READS = [
  /^list sessions$/,
  /^new session$/,
  /^get page source$/,
  /^find elements? /,
  /^(update|get) settings$/,
  /^delete session$/,
  /^execute script mobile: (isKeyboardShown|getCurrentPackage) \{\}$/,
];

/** Whether a device command only reads (a dump, a screenshot, a fact, a session's start or end). */
export function onlyReads({ source, command }: LogEntry): boolean {
  if (source === "uia2") return UIA2_READS.some((p) => p.test(command));
  const shell = command.endsWith(END) ? command.slice(0, -END.length) : null;
  if (shell === null) return EXEC_OUT.some((p) => p.test(command)) || /^forward( --remove)? /.test(command);
  return SHELL_READS.some((p) => p.test(shell)) || shell === SCREEN_FACTS || /^cmd package resolve-activity --brief \S+$/.test(shell);
}

/** What a refusal with `code` did to the device that it should not have (null: nothing): an argument error
 * refused by validation sent no command; one refused after looking only read. */
export function refusalOverreach(code: string, entries: readonly LogEntry[]): string | null {
  const sent = notThisCalls(entries);
  if (REFUSED_BEFORE_DEVICE.has(code)) return sent.find((e) => e.command !== "delete session")?.command ?? null;
  if (REFUSED_BEFORE_CHANGE.has(code)) return sent.find((e) => !onlyReads(e))?.command ?? null;
  return null;
}

/** A call the MCP layer refused (a JSON-RPC protocol error, no envelope) sent nothing to the device: the command it
 * did send, or null. */
export function protocolErrorOverreach(entries: readonly LogEntry[]): string | null {
  return notThisCalls(entries).find((e) => e.command !== "delete session")?.command ?? null;
}

/**
 * The entries a call's window may hold that are not the call's own: the previous act's evidence PNG, taken behind
 * its answer (its `screencap -p`), and the device lock's lines around it (the act keeps its lock until the PNG is
 * stored). A call refused before the gate does not wait for that capture, so it may land in its window.
 */
function notThisCalls(entries: readonly LogEntry[]): LogEntry[] {
  return entries.filter((e) => !isDeviceLockLine(e) && !(e.source === "adb" && e.command === "screencap '-p'"));
}

/** The free text one call may put on the device: its validated package, typed text and deep link (undefined: none). */
export interface Slots {
  packages: readonly string[];
  typedText?: string;
  url?: string;
}

/** A description of each command that is not one of the closed list's shapes with its slots filled validly. */
export function commandsOutsideSlots(entries: readonly LogEntry[], slots: Slots): string[] {
  const wrong: string[] = [];
  for (const { source, command } of entries.filter((e) => !isDeviceLockLine(e))) {
    if (source === "adb") {
      const shell = command.endsWith(END) ? command.slice(0, -END.length) : null;
      const resolve = shell === null ? null : /^cmd package resolve-activity --brief (\S+)$/.exec(shell)?.[1];
      // A deep link through adb (open_link.ts): the call's own URL as one quoted word (no glob reaches sh), its package.
      const view = shell === null
        ? null
        : /^am start -W -a android\.intent\.action\.VIEW -d (?:'([^']*)'|([A-Za-z0-9_@%+=:,./-]+))(?: (\S+))?$/.exec(shell);
      const viewUrl = view === null ? undefined : view[1] ?? view[2];
      const fine = shell !== null
        ? SHELL_READS.some((p) => p.test(shell)) || shell === SCREEN_FACTS ||
          (resolve !== undefined && resolve !== null && slotPackage(resolve, slots)) ||
          (view !== null && linkInSlot(view[3] === undefined ? { url: viewUrl } : { url: viewUrl, package: view[3] }, slots))
        : EXEC_OUT.some((p) => p.test(command));
      if (!fine) wrong.push(`adb: ${command.slice(0, 200)}`);
      continue;
    }
    if (UIA2_FIXED.some((p) => p.test(command))) continue;
    const app = /^execute script mobile: (?:activateApp|terminateApp|clearApp) \{"appId":"([^"]*)"\}$/.exec(command)?.[1];
    if (app !== undefined && slotPackage(app, slots)) continue;
    const link = /^execute script mobile: deepLink (\{.*\})$/s.exec(command)?.[1];
    if (link !== undefined && linkInSlot(safeJson(link), slots)) continue;
    const keys = /^send keys (".*")$/s.exec(command)?.[1];
    if (keys !== undefined && slots.typedText !== undefined && safeJson(keys) === slots.typedText) continue;
    wrong.push(`uia2: ${command.slice(0, 200)}`);
  }
  return wrong;
}

function slotPackage(name: string, slots: Slots): boolean {
  return PACKAGE_NAME_PATTERN.test(name) && (slots.packages.includes(name) || name === "com.android.settings");
}

/** A deepLink's arguments: the call's own URL, valid by the contract's rule, and at most its validated package. */
function linkInSlot(args: unknown, slots: Slots): boolean {
  if (typeof args !== "object" || args === null) return false;
  const { url, package: pkg, ...rest } = args as Record<string, unknown>;
  return Object.keys(rest).length === 0 && typeof url === "string" && url === slots.url && UrlSchema.safeParse(url).success &&
    (pkg === undefined || (typeof pkg === "string" && slotPackage(pkg, slots)));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the device's lock file says between calls (null: no lock file). */
export interface LockNote {
  pid: number;
  /** The UiAutomator2 session the holder keeps (the warm one, or a lease on it), noted for a takeover. */
  appium_session_id?: string;
}

export type Leftover = { kind: "orphaned sessions" | "leaked locks"; detail: string };

/**
 * What a device may hold between calls (no call running on it): with the warm device (`warm`), at most one session
 * beyond those listed before the lane began, the warm one, and then the lock is held and its note names exactly that
 * session; otherwise (one session per act, or after the server stopped) no session beyond them and no lock. A lock
 * held with no session, or naming another, is a leak too. Null when the device holds only what it may.
 */
export function leftoversBetweenCalls(
  listed: readonly string[],
  before: ReadonlySet<string>,
  lock: LockNote | null,
  warm: boolean,
): Leftover | null {
  const added = listed.filter((id) => !before.has(id));
  if (!warm) {
    if (added.length > 0) return { kind: "orphaned sessions", detail: `${added.length} UiAutomator2 session(s) left: ${added.join(", ")}` };
    return lock === null ? null : { kind: "leaked locks", detail: `the lock of process ${lock.pid} is left` };
  }
  if (added.length > 1) {
    return { kind: "orphaned sessions", detail: `${added.length} UiAutomator2 sessions listed at once (one warm session at most)` };
  }
  if (lock === null) {
    return added.length === 0 ? null : { kind: "orphaned sessions", detail: `the session ${added[0]} is listed while no lock is held` };
  }
  if (added.length === 0) {
    return {
      kind: "leaked locks",
      detail: `the lock of process ${lock.pid} is held with no session (it names ${lock.appium_session_id ?? "none"})`,
    };
  }
  return lock.appium_session_id === added[0] ? null : {
    kind: "orphaned sessions",
    detail: `the session ${added[0]} is listed but the lock of process ${lock.pid} names ${lock.appium_session_id ?? "no session"}`,
  };
}
