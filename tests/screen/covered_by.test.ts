/**
 * The summary's `covered_by` and the tap's `details.covered_by` on covers the first tests do not draw: a
 * scrollable sheet (no target of its own) with a long or many-line name, a nameless clickable sheet, a password
 * field, and a cover that is itself drawn under a later dialog. Hand-made dumps (dump_builder.ts).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { coveredBy, locate, parseDump, summarize } from "../../src/screen/mod.ts";
import { LABEL_MAX_CHARACTERS } from "../../src/screen/node_kinds.ts";
import { button, dump, type N } from "./dump_builder.ts";

const CONTEXT = { width: 1080, height: 2400, keyboard: { open: false as const } };

/** A page with two rows and a sheet (`sheet`) drawn over its lower half; `later` are drawn after both. */
function screen(sheet: Partial<N>, later: N[] = []): string {
  return dump([
    {
      cls: "android.widget.FrameLayout",
      bounds: [0, 0, 1080, 2400],
      children: [
        {
          cls: "android.widget.LinearLayout",
          order: 1,
          bounds: [0, 0, 1080, 2400],
          children: [button("Top row", [0, 200, 1080, 400]), button("Low row", [0, 1800, 1080, 2000])],
        },
        { cls: "android.widget.LinearLayout", order: 2, bounds: [0, 1200, 1080, 2400], ...sheet },
        ...later,
      ],
    },
  ]);
}

/** What the summary says covers `text`, and what ui_tap's refusal would name. */
function covers(xml: string, text: string): { said: string | undefined; tap: string | undefined } {
  const tree = parseDump(xml);
  const said = summarize(tree, CONTEXT).actions.find((a) => a.selector.text === text)?.covered_by;
  return { said, tap: coveredBy(tree, locate(tree, { text }))?.label };
}

const LONG = "Lorem ipsum dolor sit amet ".repeat(30).trim();

test("a cover's name is a label: one line, at most 80 characters, though the cover is a scrollable with a long text or description", () => {
  for (const sheet of [{ scroll: true, desc: LONG }, { scroll: true, text: `First line\nsecond ${LONG}` }]) {
    const { said, tap } = covers(screen(sheet), "Low row");
    assert.ok(said !== undefined, "the row is covered");
    assert.ok([...said].length <= LABEL_MAX_CHARACTERS, `${[...said].length} characters: ${said}`);
    assert.doesNotMatch(said, /\n/);
    assert.equal(tap, said, "the tap names the cover as the summary did");
  }
});

test("a nameless clickable sheet, or a password field, is named the same by the summary and by the tap, never by a password's text", () => {
  const nameless = covers(screen({ click: true, children: [] }), "Low row");
  assert.ok(nameless.said !== undefined && nameless.said !== "", JSON.stringify(nameless));
  assert.equal(nameless.tap, nameless.said);
  const field: N = { cls: "android.widget.EditText", text: "hunter2secret", password: true, click: true, bounds: [0, 1700, 1080, 2100] };
  const password = covers(screen({ children: [field] }), "Low row");
  assert.ok(password.said !== undefined && password.said !== "", JSON.stringify(password));
  assert.equal(password.tap, password.said);
  assert.doesNotMatch(`${password.said} ${password.tap}`, /hunter2/);
});

test("a cover drawn under a later dialog is not the cover: the dialog takes the tap, and both the summary and the tap name it", () => {
  const sheet = { children: [button("Size", [0, 1700, 1080, 2100])] };
  const dialog: N = {
    cls: "android.widget.FrameLayout",
    order: 3,
    bounds: [0, 1500, 1080, 2400],
    children: [button("OK", [0, 1500, 1080, 2400])],
  };
  assert.deepEqual(covers(screen(sheet, [dialog]), "Low row"), { said: "OK", tap: "OK" });
  const scrim: N = { cls: "android.widget.FrameLayout", order: 3, click: true, desc: "Dismiss", bounds: [0, 0, 1080, 2400] };
  assert.deepEqual(covers(screen(sheet, [scrim]), "Low row"), { said: "Dismiss", tap: "Dismiss" });
  assert.deepEqual(covers(screen(sheet), "Low row"), { said: "Size", tap: "Size" }, "without the dialog, the sheet's option");
});
