/**
 * The MCP resource `doctor://report`: the doctor report (SPEC §9, the same data as `doctor --json`),
 * computed afresh on every read — all eight checks at once, each under its timeout — so an agent can
 * find out why a device or Appium is unavailable and what the person should do about it.
 */
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { DoctorReport } from "../doctor/types.ts";

export const DOCTOR_REPORT_URI = "doctor://report";

export function registerDoctorResource(server: McpServer, report: () => Promise<DoctorReport>): void {
  server.registerResource(
    "doctor-report",
    DOCTOR_REPORT_URI,
    {
      title: "Doctor report",
      description: "The eight prerequisites of a real campaign (runtime, Java 17+, adb, Android SDK, device online and booted, " +
        "Appium ready, UiAutomator2 driver, artifacts directory), each ok or a miss with a remedy; checked when read (a few seconds at most).",
      mimeType: "application/json",
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(await report()) }] }),
  );
}
