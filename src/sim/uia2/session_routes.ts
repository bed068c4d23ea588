/**
 * Commands outside one session: GET /status, POST /session (W3C capabilities, merged like a real
 * server: alwaysMatch over the first firstMatch), DELETE /session/:id, GET /appium/sessions.
 * A new session replaces the device's previous one (see sessions.ts). With `appium:appPackage`
 * the package is brought to the foreground, as Appium does; an unknown package fails the session.
 */
import type { CommandInput, GlobalRoute, ServerState } from "./command.ts";
import { w3cError } from "./w3c_error.ts";

function mergedCapabilities(body: CommandInput["body"]): Record<string, unknown> {
  const caps = body["capabilities"];
  if (typeof caps !== "object" || caps === null) {
    throw w3cError("invalid argument", "POST /session needs a 'capabilities' object with 'alwaysMatch' and/or 'firstMatch'.");
  }
  const { alwaysMatch, firstMatch } = caps as { alwaysMatch?: unknown; firstMatch?: unknown };
  const first = Array.isArray(firstMatch) && typeof firstMatch[0] === "object" ? firstMatch[0] as Record<string, unknown> : {};
  return { ...first, ...(typeof alwaysMatch === "object" && alwaysMatch !== null ? alwaysMatch as Record<string, unknown> : {}) };
}

function createSession(state: ServerState, input: CommandInput): unknown {
  const requested = mergedCapabilities(input.body);
  const platform = requested["platformName"];
  if (platform !== undefined && String(platform).toLowerCase() !== "android") {
    throw w3cError("session not created", `The simulated device runs Android; platformName '${String(platform)}' cannot be served.`);
  }
  // Only the client-facing (prefixed) capability launches: the Appium driver sends bare `appPackage`
  // to the device server after it has launched the app over adb itself.
  const appPackage = requested["appium:appPackage"];
  if (typeof appPackage === "string" && !state.device.launch(appPackage)) {
    throw w3cError(
      "session not created",
      `The package '${appPackage}' is not installed on ${state.device.serial}. Install it or drop appium:appPackage.`,
    );
  }
  const d = state.device;
  const capabilities = {
    ...requested,
    platformName: "Android",
    "appium:automationName": requested["appium:automationName"] ?? "UiAutomator2",
    "appium:deviceName": d.serial,
    "appium:udid": requested["appium:udid"] ?? d.serial,
    "appium:deviceModel": d.model,
    "appium:deviceApiLevel": d.apiLevel,
    "appium:deviceScreenSize": `${d.width}x${d.height}`,
    "appium:deviceScreenDensity": d.density,
  };
  const session = state.sessions.create(capabilities, requested);
  return { sessionId: session.id, capabilities };
}

export const SESSION_ROUTES: GlobalRoute[] = [
  {
    scope: "global",
    method: "GET",
    path: "/status",
    name: "status",
    handle: () => ({
      ready: true,
      message: "UiAutomator2 Server is ready to accept commands (simulated device)",
      build: { version: "sim" },
    }),
  },
  { scope: "global", method: "POST", path: "/session", name: "new session", handle: createSession },
  {
    scope: "global",
    method: "DELETE",
    path: "/session/:sessionId",
    name: "delete session",
    handle: (state, input) => (state.sessions.delete(input.params["sessionId"] ?? ""), null),
  },
  { scope: "global", method: "GET", path: "/appium/sessions", name: "list sessions", handle: (state) => state.sessions.list() },
];
