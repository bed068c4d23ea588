/**
 * Element ids handed out by one session, and their resolution against a fresh screen. An id names a
 * node by its place in the tree plus what identifies it (class, resource-id, content-desc, and text
 * except for editable fields, whose text the user changes). Resolving an id whose node has gone
 * (the screen changed) is `stale element reference`; an id never issued is `no such element`.
 */
import { randomUUID } from "node:crypto";
import type { ScreenSnapshot, SnapshotNode } from "./screen_snapshot.ts";
import { w3cError } from "./w3c_error.ts";

export const W3C_ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";

const EDITABLE_CLASS = /EditText|AutoCompleteTextView/;

function fingerprint(node: SnapshotNode): string {
  const a = node.attrs;
  const cls = a["class"] ?? "";
  const text = EDITABLE_CLASS.test(cls) ? "" : (a["text"] ?? "");
  return JSON.stringify([node.path, cls, a["resource-id"] ?? "", a["content-desc"] ?? "", text]);
}

export class ElementStore {
  private readonly byId = new Map<string, string>();
  private readonly byPrint = new Map<string, string>();

  /** The W3C element reference for a node (the same id for the same node on an unchanged screen). */
  reference(node: SnapshotNode): Record<string, string> {
    const print = fingerprint(node);
    let id = this.byPrint.get(print);
    if (id === undefined) {
      id = randomUUID();
      this.byId.set(id, print);
      this.byPrint.set(print, id);
    }
    return { ELEMENT: id, [W3C_ELEMENT_KEY]: id };
  }

  resolve(id: string, snapshot: ScreenSnapshot): SnapshotNode {
    const print = this.byId.get(id);
    if (print === undefined) {
      throw w3cError("no such element", `An element with id '${id}' could not be found in this session. Find it again.`);
    }
    const node = snapshot.nodes.find((n) => fingerprint(n) === print);
    if (node === undefined) {
      throw w3cError(
        "stale element reference",
        `The element '${id}' does not exist in DOM anymore: the screen changed since it was found. Find it again.`,
      );
    }
    return node;
  }
}

/** The element id inside a W3C element reference or a bare id string; null when there is none. */
export function elementIdOf(value: unknown): string | null {
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "object" && value !== null) {
    const v = value as Record<string, unknown>;
    const id = v[W3C_ELEMENT_KEY] ?? v["ELEMENT"];
    if (typeof id === "string") return id;
  }
  return null;
}
