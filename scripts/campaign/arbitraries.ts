/**
 * fast-check generators of hostile tools/call requests for every published tool: random JSON, wrong types,
 * huge strings, control characters, shell metacharacters, traversal, leading `--`, unicode edge cases
 * (lone surrogates, bidi overrides, zero-width, astral), injected package names, selectors with several keys
 * or none, coordinates, `__proto__` keys, built-in property names as tool names, non-object arguments. A
 * share of each tool's inputs is well-formed (real labels of the simulated Settings screens, installed
 * packages), so calls also reach the device. Generators only: nothing is sent from here.
 */
import fc from "fast-check";
import { SELECTOR_KEY_NAMES } from "../../contracts/selector.ts";
import { inputJsonSchema, type JsonSchema } from "../../contracts/catalog.ts";
import { AVAILABLE_TOOL_NAMES, type ToolName, TOOLS } from "../../contracts/tools.ts";
import type { ToolCallParams } from "./invariants.ts";

/** Texts the simulated Settings screens show (taps that succeed and navigate). */
export const SCREEN_LABELS = [
  "Network & internet",
  "Apps",
  "Display",
  "All apps",
  "Calendar",
  "Navigate up",
  "Search Settings",
  "Airplane mode",
];
export const INSTALLED = ["com.example.notes", "com.android.settings", "com.android.chrome", "com.google.android.deskclock"];

const SHELL_BITS = [
  "; reboot",
  "&& rm -rf /",
  "|| id",
  "| sh",
  "$(reboot)",
  "`id`",
  "> /sdcard/x",
  "< /etc/passwd",
  "&",
  "\n; reboot",
  "'; input keyevent 3; '",
  '"; am start -a android.intent.action.VIEW; "',
  "\\",
  "$IFS",
  "${PATH}",
  "*",
  "~root",
];
const TRAVERSAL = [
  "../../etc/passwd",
  "..\\..\\windows",
  "%2e%2e%2f",
  "/etc/passwd",
  "/dev/tty",
  "file:///etc/passwd",
  "artifact://../x",
  "\u0000.png",
];
const FLAGS = ["--help", "-rf", "--user 0", "-p", "--es x y", "-", "--"];
const UNICODE = [
  "\ud800",
  "\udfff",
  "a\ud800b",
  "\u202eevil",
  "\u200b",
  "\ufeff",
  "𝕏𝕐",
  "🙂‍↔️",
  "Ǆ",
  "ﬁ",
  "İ",
  "e\u0301",
  "\u0085",
  "\u2028",
  "\u2029",
  "\u001b[2J",
  "\u0007",
  "\r",
  "\t",
  " ",
  "",
];

const hugeString = fc.constantFrom(1_001, 2_001, 65_536, 300_000).chain((n) =>
  fc.constantFrom("A", "語", "\u0001", '"').map((c) => c.repeat(n))
);

/** Any string a hostile or careless client might send. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SHELL_BITS, ...TRAVERSAL, ...FLAGS, ...UNICODE) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom(...SCREEN_LABELS, ...INSTALLED, "x"), fc.constantFrom(...SHELL_BITS, ...FLAGS, ...UNICODE)).map((
      [a, b],
    ) => a + b),
  },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 2,
    arbitrary: fc.string({
      unit: fc.constantFrom(";", "&", "|", "$", "`", "(", ")", "<", ">", "\\", "'", '"', "\n", " ", "-", ".", "/", "*"),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: hugeString },
);

const packageName: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INSTALLED, "com.example.notinstalled", "a.b") },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.constantFrom(...INSTALLED), fc.constantFrom(...SHELL_BITS, ...FLAGS, "..", ".", "/x")).map(([p, s]) => p + s),
  },
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom("--es x y", "-p com.x", "com..x", "1com.x", "com.x.", "nodots") },
  { weight: 1, arbitrary: fc.anything() },
);

const selectorValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SCREEN_LABELS) },
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })) },
);

const selectorKey = fc.constantFrom(...SELECTOR_KEY_NAMES);

/** A nested object `depth` levels deep, built without recursion. */
const deepObject = fc.integer({ min: 10, max: 2000 }).map((depth) => {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { within: value };
  return value;
});

export const selector: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(selectorKey, selectorValue).map(([k, v]) => ({ [k]: v })) },
  {
    weight: 2,
    arbitrary: fc.tuple(selectorKey, selectorValue, selectorKey, selectorValue).map(([k, v, wk, wv]) => ({ [k]: v, within: { [wk]: wv } })),
  },
  {
    weight: 2,
    arbitrary: fc.uniqueArray(selectorKey, { minLength: 2, maxLength: 4 }).chain((keys) =>
      fc.tuple(...keys.map(() => selectorValue)).map((values) => Object.fromEntries(keys.map((k, i) => [k, values[i]])))
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom({}, { x: 540, y: 1200 }, { bounds: [0, 0, 10, 10] }, { role: "input" }, { index: 2, text: "Apps" }, {
      text: "Apps",
      within: {},
    }),
  },
  { weight: 1, arbitrary: fc.constant(null).map(() => JSON.parse('{"__proto__": {"text": "Apps"}, "text": "Apps"}') as unknown) },
  { weight: 1, arbitrary: deepObject },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

const sessionId: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("s-0000", "../../x", "", "x".repeat(65), "s;reboot"),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
  hostileString,
  fc.anything({ maxDepth: 1 }),
);

/** A `device` (issue 26): the sim's serial and model as given or in another case, names no device has, hostile text. */
const deviceName: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("emulator-5554", "sdk_gphone64_x86_64", "SDK GPHONE64 X86 64", "EMULATOR-5554", "Pixel 9", "", "x".repeat(129)),
  hostileString,
  fc.anything({ maxDepth: 1 }),
);

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** Deep links: ones the device handles or not, refused schemes, shell bits, glob characters an allowed URL may hold
 * (issue 25: `? [ ]` reached the device's shell unquoted; the invariants ask for the URL as one quoted word), and the
 * hostile strings. */
const url: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom("https://example.com/a?b=1&c=2", "https://www.android.com", "myapp://page/1", "nowhere://x", "tel:123"),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "https://example.com/?",
      "https://example.com/?q=[a]&p=?#[x]",
      "https://example.com/[ab]",
      "myapp://x?y[]=1",
      "http://[::1]:8080/?",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "file:///etc/passwd",
      "javascript:alert(1)",
      "intent://x#Intent;end",
      "content://sms/inbox",
      "data:text/html,x",
      "about:blank",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom("https://example.com/", "myapp://"), fc.constantFrom(...SHELL_BITS, ...TRAVERSAL, ...UNICODE)).map((
      [a, b],
    ) => a + b),
  },
  { weight: 1, arbitrary: fc.constantFrom(2_049, 3_000, 300_000).map((n) => `https://example.com/${"a".repeat(n)}`) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 1 }) },
);
const choice = (accepted: string[], refused: string[]) => fc.oneof(fc.constantFrom(...accepted, ...refused), fc.anything({ maxDepth: 1 }));

/** Arguments shaped like each tool's contract, with hostile values (undefined fields left out); one per declared tool. */
/**
 * Arguments of each tool's shape, valid and not: derived from its published input schema (below), or written
 * here where the campaign knows more (hostile texts, timeouts that must stay short, wrong-case values).
 */
const writtenArguments: Partial<Record<ToolName, fc.Arbitrary<Record<string, unknown>>>> = {
  ui_get_tree: fc.record({ include_raw: maybe(fc.oneof(fc.boolean(), fc.anything({ maxDepth: 1 }))) }),
  // timeout_ms always present and short when valid: a valid wait for something absent waits all of it.
  ui_wait: fc.record({
    visible: maybe(selector),
    gone: maybe(selector),
    timeout_ms: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(-1, 30_001, 1.5, "5000", null)),
  }),
  app_list: fc.record({
    filter: maybe(fc.oneof(fc.constantFrom("com", "example", "notes", "", "."), hostileString)),
    include_system: maybe(fc.oneof(fc.boolean(), fc.anything({ maxDepth: 1 }))),
  }),
  ui_tap: fc.record({
    selector,
    gesture: maybe(choice(["tap", "long_press", "double_tap"], ["swipe", "LONG_PRESS", ""])),
    session_id: maybe(sessionId),
  }),
  ui_type_text: fc.record({
    selector,
    text: fc.oneof(hostileString, fc.constantFrom("hello", "line one\nline two", "héllo 🙂")),
    append: maybe(fc.oneof(fc.boolean(), fc.anything({ maxDepth: 1 }))),
    submit: maybe(choice(["search", "go", "send", "done", "enter"], ["next", "submit", "; reboot"])),
    session_id: maybe(sessionId),
  }),
  ui_scroll: fc.record({
    direction: fc.oneof(fc.constantFrom("up", "down", "left", "right", "UP", "diagonal", "", "down; reboot"), fc.anything({ maxDepth: 1 })),
    container: maybe(selector),
    until: maybe(selector),
    session_id: maybe(sessionId),
  }),
  device_press: fc.record({
    key: choice(["home", "app_switch", "enter", "delete", "notifications"], ["power", "back", "KEYCODE_HOME", "3", ""]),
    session_id: maybe(sessionId),
  }),
  app_open_url: fc.record({ url, package: maybe(packageName), session_id: maybe(sessionId) }),
  // Paths on this machine that are no APK (each refused before the device), and hostile strings.
  app_install: fc.record({
    path: fc.oneof(
      fc.constantFrom("/dev/zero", "/dev/null", "/etc/passwd", "/tmp", "/nonexistent/app.apk", "app-debug.apk", "", "/proc/self/environ"),
      hostileString,
      fc.anything({ maxDepth: 1 }),
    ),
    replace: maybe(fc.oneof(fc.boolean(), fc.anything({ maxDepth: 1 }))),
    session_id: maybe(sessionId),
  }),
  // Never an installed package: removing one would change what every later call of the run meets.
  app_uninstall: fc.record({
    package: fc.oneof(fc.constantFrom("com.example.notinstalled", "a.b", "io.appium.uiautomator2.server"), hostileString),
    session_id: maybe(sessionId),
  }),
};

/** One argument's values from its JSON schema: by its name where the campaign has a generator, else by its type. */
function derivedValue(key: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  if (key === "session_id") return sessionId;
  if (key === "device") return deviceName;
  if (key === "package") return packageName;
  if (key === "url") return url;
  const accepted = schema["enum"];
  if (Array.isArray(accepted)) return choice(accepted.map(String), ["", "UNKNOWN", "; reboot"]);
  switch (schema["type"]) {
    case "boolean":
      return fc.oneof(fc.boolean(), fc.anything({ maxDepth: 1 }));
    case "integer":
    case "number":
      return fc.oneof(fc.integer({ min: 0, max: 300 }), fc.constantFrom(-1, 1.5, "5", null));
    case "object":
      return selector;
    default:
      return fc.oneof(hostileString, fc.anything({ maxDepth: 1 }));
  }
}

/** A tool's arguments derived from its published input schema: required ones always, the others sometimes. */
function derivedArguments(name: ToolName): fc.Arbitrary<Record<string, unknown>> {
  const schema = inputJsonSchema(name);
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema["required"] ?? []) as string[]);
  return fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, p]) => [key, required.has(key) ? derivedValue(key, p) : maybe(derivedValue(key, p))]),
    ),
  );
}

const shapedArguments = (name: ToolName) => writtenArguments[name] ?? derivedArguments(name);

function withoutUndefined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

const extraKeys = fc.dictionary(
  fc.oneof(
    fc.constantFrom("x", "y", "coordinates", "command", "shell", "constructor", "__proto__", "k".repeat(5000)),
    fc.string({ maxLength: 10 }),
  ),
  fc.anything({ maxDepth: 2 }),
  { minKeys: 1, maxKeys: 4 },
);

const argumentsFor = (tool: ToolName): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 8, arbitrary: shapedArguments(tool).map(withoutUndefined) },
    {
      weight: 2,
      arbitrary: fc.tuple(shapedArguments(tool).map(withoutUndefined), extraKeys).map(([a, extra]) => protoSafeMerge(a, extra)),
    },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.anything({ maxDepth: 2 }), { maxKeys: 5 }) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constant(undefined),
        fc.constant(null),
        fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
        fc.string({ maxLength: 10 }),
        fc.integer(),
      ),
    },
  );

/** Merges with defineProperty, so a generated `__proto__` key stays a key on the wire. */
function protoSafeMerge(a: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const source of [a, extra]) {
    for (const key of Object.keys(source)) {
      Object.defineProperty(out, key, { value: source[key], enumerable: true, configurable: true, writable: true });
    }
  }
  return out;
}

const toolName: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...AVAILABLE_TOOL_NAMES) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom("constructor", "toString", "__proto__", "hasOwnProperty", "ui_swipe", "adb_shell", "UI_TAP", "ui_tap ", ""),
      hostileString,
      fc.anything({ maxDepth: 1 }),
    ),
  },
);

/** One tools/call request: a name (usually a served tool) and arguments for it. */
export const toolCall: fc.Arbitrary<ToolCallParams> = toolName.chain((name) =>
  (typeof name === "string" && Object.hasOwn(TOOLS, name) ? argumentsFor(name as ToolName) : argumentsFor("ui_tap")).map((
    args,
  ): ToolCallParams => args === undefined ? { name } : { name, arguments: args })
);
