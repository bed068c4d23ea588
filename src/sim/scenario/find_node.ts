/**
 * Finds the live node a client names by the attributes it read from a dump (the UiAutomator2 server
 * passes them back on click/setValue): same bounds first, then the most of class, resource-id, text
 * and content-desc that agree. Null when nothing on the screen has those bounds.
 */
import type { NodeAttributes } from "../sim_device.ts";
import { allNodes, type SimNode } from "./sim_node.ts";

export function findByAttributes(roots: readonly SimNode[], wanted: NodeAttributes): SimNode | null {
  const keys = ["bounds", "class", "resource-id", "text", "content-desc"].filter((k) => wanted[k] !== undefined);
  let best: SimNode | null = null;
  let bestScore = 0;
  for (const n of allNodes(roots)) {
    if (wanted["bounds"] !== undefined && n.attrs["bounds"] !== wanted["bounds"]) continue;
    const score = keys.filter((k) => n.attrs[k] === wanted[k]).length;
    if (score > bestScore) [best, bestScore] = [n, score];
  }
  return best;
}
