/**
 * Classifies what `uiautomator dump /dev/tty` printed. uiautomator reports failures on stdout with
 * exit status 0, glues its `UI hierchary dumped to:` trailer to `</hierarchy>`, and over `exec-out`
 * vendor noise (MIUI's theme stack trace) can precede the XML. Pure; never throws.
 */
export type DumpOutcome =
  | { kind: "xml"; xml: string }
  | { kind: "null-root-node" }
  | { kind: "idle-state" }
  | { kind: "truncated"; bytes: number }
  | { kind: "no-output"; text: string };

export function parseUiautomatorDump(stdout: string): DumpOutcome {
  const open = stdout.indexOf("<hierarchy");
  if (open !== -1) {
    const close = stdout.lastIndexOf("</hierarchy>");
    if (close === -1 || close < open) return { kind: "truncated", bytes: stdout.length };
    const declaration = stdout.lastIndexOf("<?xml", open);
    const start = declaration === -1 ? open : declaration;
    return { kind: "xml", xml: stdout.slice(start, close + "</hierarchy>".length) };
  }
  if (/null root node/i.test(stdout)) return { kind: "null-root-node" };
  if (/could not get idle state/i.test(stdout)) return { kind: "idle-state" };
  return { kind: "no-output", text: stdout.trim().slice(0, 300) };
}
