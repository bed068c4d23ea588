/**
 * `ui_type_text`: replaces (or, with `append`, adds to) the content of the one input the selector names
 * (any Unicode: Hebrew, Chinese, Korean, emoji), through the UI session; refuses an element that is not
 * an input. `submit` then presses the keyboard's action key on the field (`mobile: performEditorAction`:
 * search, go, send, done; `enter` presses KEYCODE_ENTER). The text is never echoed (only its length) and
 * is redacted in the audit log. `append` on a password field that holds text is refused (INVALID_ARGUMENT): the
 * driver appends after the field's text as Android exposes it, bullets. Errors: INVALID_TEXT (validation), INVALID_SELECTOR (not an input),
 * UI_ELEMENT_NOT_FOUND, UI_ELEMENT_AMBIGUOUS, APPIUM_UNAVAILABLE, EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool, findInSession } from "../device/act.ts";
import { HarnessError } from "../errors.ts";

export const uiTypeTextTool = defineActTool("ui_type_text", {
  async act(scope, args) {
    const { ctx, driver } = scope;
    const found = await findInSession(scope, args.selector, "ui_type_text");
    const { label, role } = found.element;
    if (role !== "input") {
      throw new HarnessError(
        "INVALID_SELECTOR",
        `${JSON.stringify(args.selector)} names '${label}', a ${
          role ?? "text"
        }, not an input; ui_type_text types only into elements the summary lists with role "input".`,
        { selector: args.selector, role: role ?? "text" },
      );
    }
    const node = found.element.node;
    if (args.append === true && node.password && (node.textLength ?? 0) > 0) {
      // UiAutomator2 appends by writing the field's text (as Android shows it: one bullet per character) before the new text.
      throw new HarnessError(
        "INVALID_ARGUMENT",
        `${JSON.stringify(args.selector)} is a password field that holds text, which Android shows only as bullets: append ` +
          "would write them in front of the new text. Send the whole password without append (it replaces).",
        { selector: args.selector },
      );
    }
    if (args.append === true) await checked(ctx, () => driver.appendText(found.elementId, args.text));
    else await checked(ctx, () => driver.replaceText(found.elementId, args.text));
    const submit = args.submit;
    if (submit === "enter") await checked(ctx, () => driver.pressKey("enter"));
    else if (submit !== undefined) await checked(ctx, () => driver.editorAction(submit));
    return { target: args.selector, element_label: label, typed_length: [...args.text].length };
  },
});
