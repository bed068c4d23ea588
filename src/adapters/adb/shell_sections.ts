/**
 * Several read-only commands of the closed list in one device shell (one adb process instead of one each):
 * the words of each command joined by `; echo __android_mcp_next ;`, and the output split back at those
 * lines. A device's sh runs them in order; the exit status is the last command's. Pure.
 */
import { HarnessError } from "../../errors.ts";

export const SECTION_MARKER = "__android_mcp_next";

/** The words after `shell` for these commands run one after the other, a marker line between each two. */
export function sectionArgs(commands: readonly (readonly string[])[]): string[] {
  return commands.flatMap((words, i) => (i === 0 ? [...words] : [";", "echo", SECTION_MARKER, ";", ...words]));
}

/** The output of each command, in order; EMULATOR_UNAVAILABLE when the device printed another number of sections. */
export function splitSections(text: string, count: number, commandName: string): string[] {
  const sections = text.split(new RegExp(`${SECTION_MARKER}\\r?\\n`)); // also after an output without its last newline
  if (sections.length !== count) {
    throw new HarnessError(
      "EMULATOR_UNAVAILABLE",
      `The device answered 'adb shell ${commandName}' with ${sections.length} parts instead of ${count}; its shell may be unusual. Retry, or report the device model.`,
      { command: commandName, sections: sections.length },
    );
  }
  return sections;
}
