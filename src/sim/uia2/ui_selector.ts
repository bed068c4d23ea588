/**
 * What a parsed UiSelector matches: the attribute filters of the supported subset (text, resourceId,
 * description, className, packageName and their Contains/StartsWith/Matches forms, the boolean
 * states, index) and `instance(n)`, applied to snapshot nodes in document order.
 */
import type { NodeAttributes } from "../sim_device.ts";
import type { UiSelector } from "./ui_selector_parser.ts";
import { w3cError } from "./w3c_error.ts";

export const STRING_FILTERS: Record<string, (attrs: NodeAttributes, v: string) => boolean> = {
  text: (a, v) => (a["text"] ?? "") === v,
  textContains: (a, v) => (a["text"] ?? "").includes(v),
  textStartsWith: (a, v) => (a["text"] ?? "").startsWith(v),
  textMatches: (a, v) => javaRegex(v).test(a["text"] ?? ""),
  resourceId: (a, v) => (a["resource-id"] ?? "") === v,
  resourceIdMatches: (a, v) => javaRegex(v).test(a["resource-id"] ?? ""),
  description: (a, v) => (a["content-desc"] ?? "") === v,
  descriptionContains: (a, v) => (a["content-desc"] ?? "").includes(v),
  descriptionStartsWith: (a, v) => (a["content-desc"] ?? "").startsWith(v),
  descriptionMatches: (a, v) => javaRegex(v).test(a["content-desc"] ?? ""),
  className: (a, v) => (a["class"] ?? "") === v,
  classNameMatches: (a, v) => javaRegex(v).test(a["class"] ?? ""),
  packageName: (a, v) => (a["package"] ?? "") === v,
  packageNameMatches: (a, v) => javaRegex(v).test(a["package"] ?? ""),
};
export const BOOLEAN_FILTERS: Record<string, string> = {
  clickable: "clickable", enabled: "enabled", checked: "checked", checkable: "checkable", scrollable: "scrollable",
  focusable: "focusable", focused: "focused", selected: "selected", longClickable: "long-clickable",
};

export function javaRegex(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`, "s");
  } catch {
    throw w3cError("invalid selector", `The regular expression '${pattern}' in the UiSelector is not valid.`);
  }
}

/** The nodes (by attributes) a UiSelector picks, in document order; `instance(n)` keeps the n-th only. */
export function selectNodes<T extends { attrs: NodeAttributes }>(selector: UiSelector, nodes: readonly T[]): T[] {
  const instanceCall = selector.calls.find((call) => call.name === "instance");
  const matched = nodes.filter((node) => selector.calls.every((call) => {
    const arg = call.args[0];
    if (call.name === "instance") return true;
    if (call.name === "index") return (node.attrs["index"] ?? "") === String(arg);
    const stringFilter = STRING_FILTERS[call.name];
    if (stringFilter !== undefined) return stringFilter(node.attrs, arg as string);
    const attr = BOOLEAN_FILTERS[call.name] as string;
    return (node.attrs[attr] ?? "false") === String(arg);
  }));
  if (instanceCall === undefined) return matched;
  const one = matched[instanceCall.args[0] as number];
  return one === undefined ? [] : [one];
}
