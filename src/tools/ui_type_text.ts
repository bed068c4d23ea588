/**
 * `ui_type_text`: replaces the content of the one input the selector names (any Unicode: Hebrew,
 * Chinese, Korean, emoji), through the UI session; refuses an element that is not an input. The text is
 * never echoed (only its length) and is redacted in the audit log. Errors: INVALID_TEXT (validation),
 * INVALID_SELECTOR (not an input), UI_ELEMENT_NOT_FOUND, UI_ELEMENT_AMBIGUOUS, APPIUM_UNAVAILABLE,
 * EMULATOR_BUSY, SESSION_NOT_FOUND, OPERATION_TIMEOUT.
 */
import { checked, defineActTool, findInSession } from "../device/act.ts";
import { HarnessError } from "../errors.ts";

export const uiTypeTextTool = defineActTool("ui_type_text", {
  async act(scope, args) {
    const { ctx } = scope;
    const found = await findInSession(scope, args.selector, "ui_type_text");
    const { label, role } = found.element;
    if (role !== "input") {
      throw new HarnessError("INVALID_SELECTOR",
        `${JSON.stringify(args.selector)} names '${label}', a ${role ?? "text"}, not an input; ui_type_text types only into elements the summary lists with role "input".`,
        { selector: args.selector, role: role ?? "text" });
    }
    await checked(ctx, () => scope.driver.replaceText(found.elementId, args.text));
    return { target: args.selector, element_label: label, typed_length: [...args.text].length };
  },
});
