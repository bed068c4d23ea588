/**
 * The harness version (a test keeps it equal to package.json's) and the `--version` line, which says the
 * runtime too. Tiny on purpose: main.ts answers `--version` with this module alone.
 */
import { describeRuntime } from "./runtime_info.ts";

export const VERSION = "0.1.0";
export const PROGRAM_NAME = "android-mcp-harness";

/** `android-mcp-harness/0.1.0 (node 20.20.2, linux-x64)`, without the newline. */
export function versionLine(): string {
  return `${PROGRAM_NAME}/${VERSION} (${describeRuntime()})`;
}
