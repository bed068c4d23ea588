/**
 * Parses the `-android uiautomator` locator text into plain data: a UiSelector method chain
 * (`new UiSelector().text("x").clickable(true).instance(1)`) or a UiScrollable with the selector to
 * scroll into view. Only the subset ui_selector.ts can match is accepted; anything else (syntax,
 * unknown method, wrong argument type, bad regex) is `invalid selector`, as on a real device.
 */
import {
  BOOLEAN_FILTERS,
  type Call,
  type CallArg,
  javaRegex,
  RELATIONS,
  STRING_FILTERS,
  type UiAutomatorLocator,
  type UiScrollable,
  type UiSelector,
} from "./ui_selector.ts";
import { w3cError } from "./w3c_error.ts";

/** A tiny recursive-descent parser over the Java-like expression text. */
class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  fail(what: string): never {
    throw w3cError(
      "invalid selector",
      `Could not parse UiSelector argument '${this.text}': ${what} at position ${this.at}. Use e.g. new UiSelector().text("OK").`,
    );
  }
  private skip(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at] as string)) this.at++;
  }
  private eat(token: string): boolean {
    this.skip();
    if (this.text.startsWith(token, this.at)) {
      this.at += token.length;
      return true;
    }
    return false;
  }
  private expect(token: string): void {
    if (!this.eat(token)) this.fail(`expected '${token}'`);
  }
  private ident(): string {
    this.skip();
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(this.text.slice(this.at));
    if (m === null) this.fail("expected a name");
    this.at += m[0].length;
    return m[0];
  }
  atEnd(): boolean {
    this.skip();
    if (this.text[this.at] === ";") this.at++;
    this.skip();
    return this.at >= this.text.length;
  }
  private stringLiteral(): string {
    this.expect('"');
    let out = "";
    while (this.at < this.text.length && this.text[this.at] !== '"') {
      const ch = this.text[this.at++] as string;
      if (ch === "\\") {
        const next = this.text[this.at++] ?? "";
        out += next === "n" ? "\n" : next === "t" ? "\t" : next === '"' || next === "\\" ? next : `\\${next}`;
      } else out += ch;
    }
    this.expect('"');
    return out;
  }
  private arg(): CallArg {
    this.skip();
    const rest = this.text.slice(this.at);
    if (rest.startsWith('"')) return this.stringLiteral();
    const num = /^-?\d+/.exec(rest);
    if (num !== null) {
      this.at += num[0].length;
      return Number(num[0]);
    }
    if (this.eat("true")) return true;
    if (this.eat("false")) return false;
    const inner = this.locator();
    if (inner.kind !== "selector") this.fail("a UiScrollable cannot be an argument");
    return inner;
  }
  private calls(): Call[] {
    const calls: Call[] = [];
    while (this.eat(".")) {
      const name = this.ident();
      this.expect("(");
      const args: CallArg[] = [];
      if (!this.eat(")")) {
        do args.push(this.arg()); while (this.eat(","));
        this.expect(")");
      }
      calls.push({ name, args });
    }
    return calls;
  }
  locator(): UiAutomatorLocator {
    this.eat("new");
    const head = this.ident();
    this.expect("(");
    if (head === "UiSelector") {
      this.expect(")");
      return { kind: "selector", calls: this.calls() };
    }
    if (head !== "UiScrollable") this.fail(`unknown class '${head}'`);
    const container = this.arg();
    this.expect(")");
    if (typeof container !== "object") this.fail("UiScrollable takes a UiSelector");
    const scrollable: UiScrollable = { kind: "scrollable", container, target: null, maxSwipes: 30 };
    for (const call of this.calls()) {
      const [first] = call.args;
      if (call.name === "scrollIntoView" && typeof first === "object") scrollable.target = first;
      else if (call.name === "scrollTextIntoView" && typeof first === "string") {
        scrollable.target = { kind: "selector", calls: [{ name: "text", args: [first] }] };
      } else if (call.name === "setMaxSearchSwipes" && typeof first === "number") scrollable.maxSwipes = first;
      else if (!["setAsVerticalList", "setAsHorizontalList", "setSwipeDeadZonePercentage"].includes(call.name)) {
        this.fail(`UiScrollable method '${call.name}' is not supported`);
      }
    }
    return scrollable;
  }
}

export function parseUiAutomator(text: string): UiAutomatorLocator {
  const parser = new Parser(text);
  const locator = parser.locator();
  if (!parser.atEnd()) parser.fail("unexpected text after the selector");
  if (locator.kind === "selector") checkSelector(locator);
  else {
    checkSelector(locator.container);
    if (locator.target !== null) checkSelector(locator.target);
  }
  return locator;
}

function checkSelector(selector: UiSelector): void {
  for (const call of selector.calls) {
    const [arg] = call.args;
    const ok = (call.name in STRING_FILTERS && typeof arg === "string") ||
      (call.name in BOOLEAN_FILTERS && typeof arg === "boolean") ||
      ((call.name === "index" || call.name === "instance") && typeof arg === "number") ||
      ((RELATIONS as readonly string[]).includes(call.name) && typeof arg === "object");
    if (ok && typeof arg === "object") checkSelector(arg);
    if (ok && call.name.endsWith("Matches")) javaRegex(arg as string);
    if (!ok || call.args.length !== 1) {
      throw w3cError(
        "invalid selector",
        `UiSelector method '${call.name}' with ${JSON.stringify(call.args)} is not supported by the simulated UiAutomator2 server.`,
      );
    }
  }
}
