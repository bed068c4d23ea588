/**
 * The simulated UiAutomator2 server: one node:http server on loopback (port 0 by default) that
 * answers both as Appium would to webdriverio and as the on-device UiAutomator2 server does to the
 * real Appium driver. It reads the screen from a SimDevice, sends actions to it, logs every command
 * to device.log (source "uia2") and applies the device's UiAutomator2 faults. A successful DELETE of
 * the session tells the device's adb shell that the server process quit (SimDevice.uia2ServerQuit). `stop()` closes it.
 */
import { Buffer } from "node:buffer";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AnswerDelays, APPIUM_NEW_SESSION, NO_DELAYS } from "../latency.ts";
import type { SimDevice } from "../sim_device.ts";
import type { CommandInput, Route, ServerState, SessionCommand } from "./command.ts";
import { describeCommand } from "./command_log.ts";
import type { FindScreen } from "./locate.ts";
import { matchRoute } from "./routes.ts";
import { readSnapshot, type ScreenSnapshot } from "./screen_snapshot.ts";
import { SessionRegistry } from "./sessions.ts";
import { w3cError, w3cErrorBody } from "./w3c_error.ts";

export interface Uia2Server {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface Uia2ServerOptions {
  host?: string;
  port?: number;
  /** Waits before each answer (the latency profile); none by default. */
  delays?: AnswerDelays;
  /** The time in ms sessions are stamped and expire by (default Date.now; tests pass a fake one). */
  now?: () => number;
}

/** The largest request body read (the biggest real one, a typed text or an actions list, is a few KB). */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/** The body as text; past MAX_REQUEST_BYTES the rest is read and dropped, then a W3C invalid argument. */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(c);
      else chunks = [];
    });
    req.on("end", () => {
      if (size > MAX_REQUEST_BYTES) {
        reject(w3cError("invalid argument", `The request body is larger than ${MAX_REQUEST_BYTES / 1024 / 1024} MiB (${size} bytes).`));
      } else resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

function parseBody(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw w3cError("invalid argument", "The request body is not valid JSON.");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw w3cError("invalid argument", "The request body must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

/** Path without query, trailing slash or the legacy `/wd/hub` base. */
function normalisePath(url: string): string {
  let path = (url.split("?")[0] ?? "/").replace(/^\/wd\/hub(?=\/|$)/, "");
  if (path.length > 1) path = path.replace(/\/+$/, "");
  return path === "" ? "/" : path;
}

/** The device's screen, re-read on every call; an unchanged dump reuses its parsed snapshot. */
function screenOf(device: SimDevice): FindScreen {
  let last: { xml: string; snapshot: ScreenSnapshot } | null = null;
  return {
    read: () => {
      const xml = device.hierarchyXml();
      if (last === null || last.xml !== xml) last = { xml, snapshot: readSnapshot(xml, { width: device.width, height: device.height }) };
      return last.snapshot;
    },
    scroll: (direction) => device.scroll(direction),
  };
}

function run(state: ServerState, route: Route, input: CommandInput): unknown {
  const { device, sessions } = state;
  const faults = device.faults;
  if (faults.uia2Error500 === true && route.name !== "status") {
    throw w3cError("unknown error", "An unknown server-side error occurred while processing the command (simulated UiAutomator2 fault).");
  }
  if (route.scope === "global") return route.handle(state, input);
  const session = sessions.get(input.params["sessionId"] ?? "");
  const diesAfter = faults.uia2SessionDiesAfter;
  if (diesAfter !== undefined && session.commands >= diesAfter) {
    sessions.crash(session);
    throw w3cError(
      "invalid session id",
      `A session is either terminated or not started: the UiAutomator2 server crashed (simulated). Create a new session.`,
    );
  }
  session.commands++;
  const command: SessionCommand = { ...input, device, session, screen: state.screen, now: state.now, sleep: state.sleep };
  return route.handle(command);
}

export async function startUia2Server(device: SimDevice, options: Uia2ServerOptions = {}): Promise<Uia2Server> {
  const host = options.host ?? "127.0.0.1";
  const now = options.now ?? (() => Date.now());
  const sessions = new SessionRegistry(() => device.uia2ServerQuit(), now);
  const state: ServerState = {
    device,
    sessions,
    screen: screenOf(device),
    now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), // the device's clock is the wall clock (mod.ts)
  };
  const delays = options.delays ?? NO_DELAYS;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let status = 200;
    let body: unknown;
    let routeName = "";
    try {
      const method = req.method ?? "GET";
      const { route, params } = matchRoute(method, normalisePath(req.url ?? "/"));
      routeName = route.name;
      const input: CommandInput = { params, body: parseBody(await readBody(req)) };
      const script = input.body["script"];
      if (route.name === "execute script" && typeof script === "string") routeName = `${route.name} ${script}`; // the latency profile prices some mobile: commands
      if (route.name !== "status") device.log.push({ source: "uia2", command: describeCommand(route.name, input) });
      body = { value: (await run(state, route, input)) ?? null };
    } catch (error) {
      const failure = w3cErrorBody(error);
      status = failure.status;
      body = failure.body;
    }
    const text = JSON.stringify(body);
    // No instrumentation runs: this server stands in for Appium and its driver, whose session start starts one.
    if (routeName === "new session" && !device.uia2Instrumented) routeName = APPIUM_NEW_SESSION;
    await delays.uia2(routeName, text.length); // the device's own time
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };

  const server = createServer((req, res) => void handle(req, res));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        state.sessions.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
