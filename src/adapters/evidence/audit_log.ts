/**
 * The audit log: one JSON line per operation appended to `audit.jsonl` in the artifacts directory
 * (operation id, tool, arguments, outcome code, evidence id, duration). Typed text (the top-level
 * `text` argument) is replaced by `{redacted_length: N}` (contracts' redactArguments, applied again here
 * so no writer can leak it); selectors are kept; the arguments are a bounded copy (audit_arguments.ts),
 * so a line stays under 8 KiB whatever was sent. Appends are single
 * writes in append mode, so lines from several processes do not interleave. Throws
 * EVIDENCE_WRITE_FAILED when the line cannot be written.
 */
import { join } from "node:path";
import { redactArguments } from "../../../contracts/tool_inputs.ts";
import { HarnessError } from "../../errors.ts";
import type { AuditLog, AuditRecord, FileSystem } from "../../ports/evidence.ts";
import { boundedArguments } from "./audit_arguments.ts";

export const AUDIT_FILE_NAME = "audit.jsonl";
/** No line is longer (bytes, newline included); bounded arguments full of escapes or wide characters are dropped to fit. */
export const AUDIT_LINE_MAX_BYTES = 8192;

function auditLine(record: AuditRecord): string {
  const line = JSON.stringify({ ...record, arguments: boundedArguments(redactArguments(record.arguments)) }) + "\n";
  if (Buffer.byteLength(line) <= AUDIT_LINE_MAX_BYTES) return line;
  return JSON.stringify({ ...record, arguments: { "…": `arguments too large to keep (${Buffer.byteLength(line)} bytes)` } }) + "\n";
}

export function createAuditLog(options: { directory: string; fs: FileSystem }): AuditLog & { readonly path: string } {
  const path = join(options.directory, AUDIT_FILE_NAME);
  return {
    path,
    async append(record: AuditRecord) {
      const line = auditLine(record);
      try {
        await options.fs.makeDirectory(options.directory);
        await options.fs.appendText(path, line);
      } catch (error) {
        throw new HarnessError(
          "EVIDENCE_WRITE_FAILED",
          `Cannot append to the audit log "${path}" (${(error as Error).message}); check that the artifacts directory is writable.`,
        );
      }
    },
  };
}
