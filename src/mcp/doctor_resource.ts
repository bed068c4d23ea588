/**
 * The MCP resource `doctor://report`: the doctor report (SPEC §9, the same data as `doctor --json`),
 * computed afresh on every read — all eight checks at once, each under its timeout — so an agent can
 * find out why a device or Appium is unavailable and what the person should do about it.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { DoctorReport } from "../doctor/types.ts";
import type { ResourceReader } from "./resource_reads.ts";

export const DOCTOR_REPORT_URI = "doctor://report";

/** Registers the resource (so resources/list names it) and returns its reader (resource_reads.ts answers reads). */
export function registerDoctorResource(server: McpServer, report: () => Promise<DoctorReport>): ResourceReader {
  const read = async (uri: string): Promise<ReadResourceResult> => ({
    contents: [{ uri, mimeType: "application/json", text: JSON.stringify(await report()) }],
  });
  server.registerResource(
    "doctor-report",
    DOCTOR_REPORT_URI,
    {
      title: "Doctor report",
      description: "The eight prerequisites of a real campaign (runtime, Java 17+, adb, Android SDK, device online and booted, " +
        "Appium ready, UiAutomator2 driver, artifacts directory), each ok or a miss with a remedy; checked when read (a few seconds at most).",
      mimeType: "application/json",
    },
    (uri) => read(uri.href),
  );
  return { serves: DOCTOR_REPORT_URI, claims: (uri) => uri === DOCTOR_REPORT_URI, read };
}
