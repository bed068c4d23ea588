/**
 * Matches a SPEC §6 selector against the sim's nodes, so scenario transitions can name what the user
 * taps the way the harness does. Exact keys compare whole values; `text_contains` is a substring test;
 * `within` requires a matching ancestor.
 */
import { ancestors, type SimNode } from "./sim_node.ts";
import type { SimSelector, SimSelectorKey } from "./types.ts";

const ATTRIBUTE: Record<SimSelectorKey, string> = {
  resource_id: "resource-id",
  text: "text",
  content_desc: "content-desc",
  text_contains: "text",
  input_hint: "hint",
};

export const SELECTOR_KEYS = Object.keys(ATTRIBUTE) as SimSelectorKey[];

function matchesKeys(node: SimNode, keys: Partial<Record<SimSelectorKey, string>>): boolean {
  for (const key of SELECTOR_KEYS) {
    const wanted = keys[key];
    if (wanted === undefined) continue;
    const actual = node.attrs[ATTRIBUTE[key]] ?? "";
    if (key === "text_contains" ? !actual.includes(wanted) : actual !== wanted) return false;
  }
  return true;
}

export function matchesSelector(node: SimNode, selector: SimSelector): boolean {
  if (!matchesKeys(node, selector)) return false;
  const within = selector.within;
  return within === undefined || ancestors(node).some((a) => matchesKeys(a, within));
}
