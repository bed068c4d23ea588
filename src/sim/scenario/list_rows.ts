/**
 * The rows of a list that an app changes from what the user typed: search results filtered by a query (FilterSpec)
 * and a row saved from an editor (SaveSpec). Rows keep the list's own spacing; what passes the list's bottom is cut,
 * as a RecyclerView keeps only the rows on screen. Mutates the given nodes; pure otherwise.
 */
import { allNodes, boundsOf, type Rect, type SimNode } from "./sim_node.ts";
import type { FilterSpec } from "./types.ts";

const byId = (roots: readonly SimNode[], id: string) => allNodes(roots).filter((n) => n.attrs["resource-id"] === id);
/** The texts of a row the query is looked for in: the one `match` names, else all. */
const texts = (node: SimNode, match: string | undefined) =>
  allNodes([node]).filter((n) => match === undefined || n.attrs["resource-id"] === match).map((n) => n.attrs["text"] ?? "");

/** Filters the screen's rows by `query` (case-insensitive substring of a row's texts, or of its `match` text) and says so in its count or empty node. */
export function filterRows(roots: readonly SimNode[], filter: FilterSpec, query: string): void {
  const rows = byId(roots, filter.row);
  const wanted = query.toLocaleLowerCase();
  const kept = rows.filter((row) => texts(row, filter.match).some((t) => t.toLocaleLowerCase().includes(wanted)));
  const slots = rows.map(boundsOf);
  const list = rows[0]?.parent ?? null;
  for (const row of rows) if (!kept.includes(row)) remove(row);
  kept.forEach((row, i) => moveTo(row, slots[i] ?? null));
  if (list !== null) cutToBottom(list);
  for (const count of filter.count === undefined ? [] : byId(roots, filter.count)) {
    if (kept.length === 0) remove(count);
    else count.attrs["text"] = `${kept.length} ${kept.length === 1 ? "result" : "results"}`;
  }
  for (const empty of byId(roots, filter.empty)) {
    if (kept.length > 0) remove(empty);
    else empty.attrs["text"] = (empty.attrs["text"] ?? "").replaceAll("{query}", () => query);
  }
}

/**
 * Adds a row at the top of the list `listId`: a copy of its first row whose text nodes (by resource-id) show
 * `values`; the rows below move down by the list's row pitch. False when there is no such list or row.
 */
export function prependRow(roots: readonly SimNode[], listId: string, values: Record<string, string>): boolean {
  const list = byId(roots, listId)[0];
  const first = list?.children[0];
  if (list === undefined || first === undefined) return false;
  const row = copy(first, list);
  for (const n of allNodes([row])) {
    const value = values[n.attrs["resource-id"] ?? ""];
    if (value !== undefined) n.attrs["text"] = value;
  }
  const a = boundsOf(first), b = list.children[1] === undefined ? null : boundsOf(list.children[1]);
  const pitch = a === null ? 0 : b !== null ? b.top - a.top : a.bottom - a.top;
  for (const child of list.children) shift(child, pitch);
  list.children.unshift(row);
  cutToBottom(list);
  return true;
}

function remove(node: SimNode): void {
  const parent = node.parent;
  if (parent === null) return;
  parent.children = parent.children.filter((c) => c !== node);
  renumber(parent);
}

/** Moves a row (and what it holds) so that its top-left is the slot's; its size stays. */
function moveTo(row: SimNode, slot: Rect | null): void {
  const r = boundsOf(row);
  if (r === null || slot === null) return;
  shift(row, slot.top - r.top);
}

function shift(node: SimNode, dy: number): void {
  for (const n of allNodes([node])) {
    const r = boundsOf(n);
    if (r !== null) n.attrs["bounds"] = `[${r.left},${r.top + dy}][${r.right},${r.bottom + dy}]`;
  }
}

/**
 * What starts at or below the list's bottom is not there (a view clipped out of sight is not dumped); what crosses it
 * is cut there.
 */
function cutToBottom(list: SimNode): void {
  const bottom = boundsOf(list)?.bottom;
  if (bottom === undefined) return;
  const cut = (parent: SimNode) => {
    parent.children = parent.children.filter((c) => (boundsOf(c)?.top ?? 0) < bottom);
    renumber(parent);
    for (const n of parent.children) {
      const r = boundsOf(n);
      if (r !== null && r.bottom > bottom) n.attrs["bounds"] = `[${r.left},${r.top}][${r.right},${bottom}]`;
      cut(n);
    }
  };
  cut(list);
}

function renumber(parent: SimNode): void {
  parent.children.forEach((c, i) => {
    c.attrs["index"] = String(i);
    c.attrs["drawing-order"] = String(i + 1);
  });
}

function copy(node: SimNode, parent: SimNode | null): SimNode {
  const out: SimNode = { ...node, attrs: { ...node.attrs }, parent, children: [] };
  out.children = node.children.map((c) => copy(c, out));
  return out;
}
