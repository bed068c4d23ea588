/**
 * How one UiAutomator2 command reads in device.log: the command's name plus the arguments that say
 * what it did (locator, typed text, package, script, direction), e.g.
 * `find element -android uiautomator new UiSelector().text("OK")` or `send keys "alice"`.
 */
import type { CommandInput } from "./command.ts";

const SHOWN_KEYS = ["using", "value", "strategy", "selector", "text", "appId", "script", "direction", "keycode"];

export function describeCommand(name: string, input: CommandInput): string {
  const parts = [name];
  for (const key of SHOWN_KEYS) {
    const v = input.body[key];
    if (typeof v === "string") parts.push(key === "text" ? JSON.stringify(v) : v);
    else if (typeof v === "number") parts.push(String(v));
  }
  const args = input.body["args"];
  if (Array.isArray(args) && args.length > 0) parts.push(JSON.stringify(args[0]));
  if (Array.isArray(input.body["actions"])) parts.push(JSON.stringify(input.body["actions"]));
  return parts.join(" ");
}
