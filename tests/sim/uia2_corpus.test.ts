/**
 * Every real uiautomator dump of the shared corpus, read by the simulated UiAutomator2 server: the
 * page source keeps every node, and each node's unique resource-id, content-desc and text find
 * exactly that node by `id`, `accessibility id`, UiSelector `text(…)` and xpath — including
 * newlines, quotes, non-Latin scripts and class names that are not valid XML tags.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findNodes } from "../../src/sim/uia2/locate.ts";
import { readSnapshot, type SnapshotNode } from "../../src/sim/uia2/screen_snapshot.ts";
import { CORPUS_DIR, corpusSkipReason } from "../support/paths.ts";

const skip = corpusSkipReason();
const dumps = skip === false
  ? readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".xml")).filter((f) =>
    /<node[\s>]/.test(readFileSync(join(CORPUS_DIR, f), "utf8").slice(0, 2000))
  )
  : [];

function uniqueBy(nodes: SnapshotNode[], attr: string): SnapshotNode[] {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.attrs[attr] ?? "", (counts.get(n.attrs[attr] ?? "") ?? 0) + 1);
  return nodes.filter((n) => (n.attrs[attr] ?? "") !== "" && counts.get(n.attrs[attr] ?? "") === 1);
}

function javaString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;
}

function xpathLiteral(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return `concat(${value.split('"').map((p) => `"${p}"`).join(`, '"', `)})`;
}

test("the corpus holds uiautomator dumps to read", { skip }, () => {
  assert.ok(dumps.length >= 20, `only ${dumps.length} dumps found in ${CORPUS_DIR}`);
});

for (const file of dumps) {
  test(`corpus ${file}: page source keeps every node; unique keys find exactly their node`, { skip }, () => {
    const xml = readFileSync(join(CORPUS_DIR, file), "utf8");
    const snapshot = readSnapshot(xml, { width: 1080, height: 2400 });
    const screen = { read: () => snapshot, scroll: () => {} };
    assert.equal(snapshot.nodes.length, (xml.match(/<node[\s>]/g) ?? []).length);
    assert.equal(findNodes(screen, "xpath", "//*", null).length, snapshot.nodes.length);
    const only = (strategy: string, selector: string, node: SnapshotNode): void =>
      assert.deepEqual(
        findNodes(screen, strategy, selector, null).map((n) => n.path),
        [node.path],
        `${strategy} ${JSON.stringify(selector)}`,
      );
    for (const n of uniqueBy(snapshot.nodes, "resource-id")) only("id", n.attrs["resource-id"] ?? "", n);
    for (const n of uniqueBy(snapshot.nodes, "content-desc")) {
      only("accessibility id", n.attrs["content-desc"] ?? "", n);
      only("-android uiautomator", `new UiSelector().description(${javaString(n.attrs["content-desc"] ?? "")})`, n);
    }
    for (const n of uniqueBy(snapshot.nodes, "text")) {
      only("-android uiautomator", `new UiSelector().text(${javaString(n.attrs["text"] ?? "")})`, n);
      only("xpath", `//*[@text=${xpathLiteral(n.attrs["text"] ?? "")}]`, n);
    }
  });
}
