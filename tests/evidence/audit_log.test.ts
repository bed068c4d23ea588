import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { redactArguments } from "../../contracts/tool_inputs.ts";
import { createAuditLog } from "../../src/adapters/evidence/audit_log.ts";
import { createNodeFileSystem } from "../../src/adapters/evidence/node_file_system.ts";
import type { AuditRecord } from "../../src/ports/evidence.ts";
import { tempDir } from "./temp_dir.ts";

const record = (overrides: Partial<AuditRecord>): AuditRecord => ({
  ts: "2026-11-29T23:16:22.282Z",
  operation_id: "op-1",
  tool: "ui_type_text",
  arguments: {},
  outcome: "ok",
  evidence_id: null,
  duration_ms: 12,
  ...overrides,
});

test("audit log: one JSON line per operation in artifacts/audit.jsonl, typed text redacted to its length", async (t) => {
  const dir = join(tempDir(t), "artifacts");
  const log = createAuditLog({ directory: dir, fs: createNodeFileSystem() });
  assert.equal(log.path, join(dir, "audit.jsonl"));
  await log.append(
    record({ arguments: { selector: { text: "Password" }, text: "hunter2 ✓" }, evidence_id: "20261129-231622-282673-ui-type-text.png" }),
  );
  await log.append(
    record({ operation_id: "op-2", tool: "ui_tap", arguments: { selector: { text: "Save" } }, outcome: "UI_ELEMENT_NOT_FOUND" }),
  );
  const text = readFileSync(log.path, "utf8");
  assert.ok(!text.includes("hunter2"));
  const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 2);
  assert.deepEqual(lines[0], {
    ...record({}),
    arguments: { selector: { text: "Password" }, text: { redacted_length: 9 } },
    evidence_id: "20261129-231622-282673-ui-type-text.png",
  });
  assert.deepEqual(lines[1].arguments, { selector: { text: "Save" } });
  assert.equal(lines[1].outcome, "UI_ELEMENT_NOT_FOUND");
});

test("audit log: concurrent appends stay whole lines", async (t) => {
  const log = createAuditLog({ directory: tempDir(t), fs: createNodeFileSystem() });
  await Promise.all(
    Array.from({ length: 50 }, (_, i) => log.append(record({ operation_id: `op-${i}`, arguments: { text: "x".repeat(i) } }))),
  );
  const lines = readFileSync(log.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as AuditRecord);
  assert.equal(lines.length, 50);
  assert.deepEqual(new Set(lines.map((l) => l.operation_id)).size, 50);
});

test("redaction is idempotent and leaves other arguments alone", () => {
  const once = redactArguments({ text: "abc", selector: { text: "abc" } });
  assert.deepEqual(redactArguments(once), { text: { redacted_length: 3 }, selector: { text: "abc" } });
  // A text that is not a string (refused later) is hidden too; non-object arguments name their type.
  assert.deepEqual(redactArguments({ text: { secret: "hunter2" } }), { text: { redacted_length: 0 } });
  assert.deepEqual(redactArguments({ text: { redacted_length: 3, secret: "x" } }), { text: { redacted_length: 0 } });
  assert.deepEqual(redactArguments("hunter2"), { invalid: "string" });
  assert.deepEqual(redactArguments([1]), { invalid: "array" });
  assert.deepEqual(redactArguments(undefined), {});
});

test("a URL argument keeps scheme, host and path; userinfo, query and fragment become a marker with their length (R38)", () => {
  const url = (u: unknown) => redactArguments({ url: u })["url"];
  assert.equal(url("https://shop.example/item?token=abc&session=12345"), "https://shop.example/item?<redacted 23 chars>");
  assert.equal(
    url("https://ann:pw@shop.example:8443/a/b#access_token=x"),
    "https://<redacted 6 chars>@shop.example:8443/a/b#<redacted 14 chars>",
  );
  assert.equal(url("shop://product/42?ref=mail#top"), "shop://product/42?<redacted 8 chars>#<redacted 3 chars>");
  assert.equal(url("mailto:ann@example.com?subject=hi"), "mailto:ann@example.com?<redacted 10 chars>");
  // Nothing secret: kept as sent; an empty query or fragment stays empty.
  assert.equal(url("https://shop.example/item"), "https://shop.example/item");
  assert.equal(url("https://shop.example/?#"), "https://shop.example/?#");
  // Characters are counted, not bytes; not a URL at all: all of it is hidden; not a string: hidden too.
  assert.equal(url("https://例え.jp/ß?q=例え"), "https://例え.jp/ß?<redacted 4 chars>");
  assert.equal(url("no scheme here?x=1"), "<redacted 18 chars>");
  assert.deepEqual(url({ secret: "x" }), { redacted_length: 0 });
  // Idempotent (the gate redacts, then the audit log again).
  for (const u of ["https://a:b@h/p?q#f", "no scheme", "x:y?z"]) assert.equal(url(url(u)), url(u));
  assert.deepEqual(redactArguments({ url: "https://h/p?q=1", package: "com.x" }), {
    url: "https://h/p?<redacted 3 chars>",
    package: "com.x",
  });
});

test("a web URL with one, three or no slashes still hides its userinfo: browsers read it as an authority (R38, a18)", () => {
  // WHATWG URL (Chrome, the usual handler of a VIEW intent for https) skips any run of slashes after a special
  // scheme: `https:/ann:pw@shop.example/` opens shop.example as ann with password pw.
  const url = (u: string) => redactArguments({ url: u })["url"] as string;
  for (const sent of ["https:/ann:Hunter2@shop.example/a", "https:///ann:Hunter2@shop.example/a", "http:ann:Hunter2@shop.example/a"]) {
    const kept = url(sent);
    assert.ok(!kept.includes("Hunter2"), `${sent} kept as ${kept}`);
    assert.match(kept, /<redacted 11 chars>@shop\.example\/a$/);
    assert.equal(url(kept), kept);
  }
  // A custom scheme has no such reading: its path is kept as sent.
  assert.equal(url("shop:/ann@x/p"), "shop:/ann@x/p");
});

test("one bounded audit line per operation, always: huge, wide and deeply nested arguments (R6)", async (t) => {
  const log = createAuditLog({ directory: tempDir(t), fs: createNodeFileSystem() });
  let deep: unknown = "bottom";
  for (let i = 0; i < 200_000; i++) deep = { a: deep };
  let deepArray: unknown = [];
  for (let i = 0; i < 200_000; i++) deepArray = [deepArray];
  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`key${i}`, "v".repeat(1000)]));
  const cases: Record<string, unknown>[] = [
    { filter: "x".repeat(9_900_000) },
    { ["k".repeat(1_000_000)]: 1 },
    { selector: deep },
    { selector: deepArray },
    wide,
    { text: "secret ".repeat(100_000), selector: { text: "y".repeat(100_000) } },
    JSON.parse('{"__proto__": {"polluted": true}, "filter": "a"}'),
    Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`\u0001${i}`, "\u0001".repeat(5000)])),
    { filter: "語".repeat(50_000), selector: Array.from({ length: 30 }, () => "語".repeat(300)) },
  ];
  for (const [i, args] of cases.entries()) {
    await log.append(record({ operation_id: `op-${i}`, arguments: args, outcome: "INVALID_ARGUMENT" }));
  }
  const text = readFileSync(log.path, "utf8");
  const lines = text.trimEnd().split("\n");
  assert.equal(lines.length, cases.length, "one line for each, none lost to a stack overflow");
  for (const line of lines) assert.ok(Buffer.byteLength(line) <= 8192, `a line of ${Buffer.byteLength(line)} bytes`);
  const parsed = lines.map((l) => JSON.parse(l) as AuditRecord);
  assert.deepEqual(parsed.map((l) => l.operation_id), cases.map((_, i) => `op-${i}`));
  assert.match(String(parsed[0]!.arguments["filter"]), /^x{100,}…\[9900000 characters\]$/);
  assert.ok(!text.includes("secret secret"), "typed text stays redacted");
  assert.deepEqual(parsed[5]!.arguments["text"], { redacted_length: 700_000 });
  assert.deepEqual(Object.keys(parsed[6]!.arguments), ["__proto__", "filter"], "a __proto__ key is written down as the key it was");
  assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
});
