/**
 * What a parsed UiSelector matches: the attribute filters of the supported subset (text, resourceId,
 * description, className, packageName and their Contains/StartsWith/Matches forms, the boolean
 * states, index), `instance(n)`, and the childSelector / fromParent relations, over snapshot nodes; and the
 * locator's data types, which the parser (ui_selector_parser.ts, checked against these filters) builds.
 */
import type { NodeAttributes } from "../sim_device.ts";
import { w3cError } from "./w3c_error.ts";

/** A locator as plain data, as ui_selector_parser.ts reads it from the `-android uiautomator` text. */
export type CallArg = string | number | boolean | UiSelector;
export interface Call {
  name: string;
  args: CallArg[];
}
export interface UiSelector {
  kind: "selector";
  calls: Call[];
}
export interface UiScrollable {
  kind: "scrollable";
  container: UiSelector;
  /** The selector to scroll into view (scrollIntoView / scrollTextIntoView), if any. */
  target: UiSelector | null;
  maxSwipes: number;
}
export type UiAutomatorLocator = UiSelector | UiScrollable;

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
  clickable: "clickable",
  enabled: "enabled",
  checked: "checked",
  checkable: "checkable",
  scrollable: "scrollable",
  focusable: "focusable",
  focused: "focused",
  selected: "selected",
  longClickable: "long-clickable",
};

export function javaRegex(pattern: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`, "s");
  } catch {
    throw w3cError("invalid selector", `The regular expression '${pattern}' in the UiSelector is not valid.`);
  }
}

/** The chaining methods that move the search to related nodes instead of filtering. */
export const RELATIONS = ["childSelector", "fromParent"] as const;

interface TreeNode {
  attrs: NodeAttributes;
  /** Child indexes from the root ("0/2/1"), as SnapshotNode has them. */
  path: string;
}

function filtered<T extends TreeNode>(calls: UiSelector["calls"], nodes: readonly T[]): T[] {
  const instanceCall = calls.find((call) => call.name === "instance");
  const matched = nodes.filter((node) =>
    calls.every((call) => {
      const arg = call.args[0];
      if (call.name === "instance") return true;
      if (call.name === "index") return (node.attrs["index"] ?? "") === String(arg);
      const stringFilter = STRING_FILTERS[call.name];
      if (stringFilter !== undefined) return stringFilter(node.attrs, arg as string);
      const attr = BOOLEAN_FILTERS[call.name] as string;
      return (node.attrs[attr] ?? "false") === String(arg);
    })
  );
  if (instanceCall === undefined) return matched;
  const one = matched[instanceCall.args[0] as number];
  return one === undefined ? [] : [one];
}

const parentPath = (path: string): string => path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
const under = (path: string, ancestor: string): boolean => ancestor === "" || path.startsWith(`${ancestor}/`);

/**
 * The nodes a UiSelector picks, in document order; `instance(n)` keeps the n-th only.
 * `childSelector(s)` continues among the descendants of the matches, `fromParent(s)` among the
 * descendants of their parents (siblings and their subtrees), as UiAutomator does.
 */
export function selectNodes<T extends TreeNode>(selector: UiSelector, nodes: readonly T[]): T[] {
  const at = selector.calls.findIndex((call) => (RELATIONS as readonly string[]).includes(call.name));
  if (at === -1) return filtered(selector.calls, nodes);
  const relation = selector.calls[at] as UiSelector["calls"][number];
  const own = [
    ...selector.calls.slice(0, at),
    ...selector.calls.slice(at + 1).filter((c) => !(RELATIONS as readonly string[]).includes(c.name)),
  ];
  const anchors = filtered(own, nodes).map((n) => relation.name === "childSelector" ? n.path : parentPath(n.path));
  const scope = nodes.filter((n) => anchors.some((a) => under(n.path, a)));
  return selectNodes(relation.args[0] as UiSelector, scope);
}
