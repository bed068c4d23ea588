/**
 * The shapes shared by the simulated server's command handlers: a route (method, path pattern,
 * name) and what a handler receives — the device, the parsed JSON body, the path parameters and,
 * for session commands, the live session and a screen reader that re-reads the device each time.
 * A handler returns (or resolves to) the W3C `value`, or throws `w3cError(...)`.
 */
import type { SimDevice } from "../sim_device.ts";
import type { FindScreen } from "./locate.ts";
import type { SessionRegistry, Uia2Session } from "./sessions.ts";
import { w3cError } from "./w3c_error.ts";

export interface ServerState {
  device: SimDevice;
  sessions: SessionRegistry;
  /** The device's current screen (cached while the dump is unchanged). */
  screen: FindScreen;
  now(): number;
  /** Waits on the device's clock (the idle waits of idle.ts). */
  sleep(ms: number): Promise<void>;
}

export interface CommandInput {
  params: Readonly<Record<string, string>>;
  body: Readonly<Record<string, unknown>>;
}

export interface SessionCommand extends CommandInput {
  device: SimDevice;
  session: Uia2Session;
  screen: FindScreen;
  now(): number;
  sleep(ms: number): Promise<void>;
}

interface RouteBase {
  method: "GET" | "POST" | "DELETE";
  /** Path after `/session/:sessionId` for session routes, the whole path otherwise; `:name` captures. */
  path: string;
  name: string;
}
export interface GlobalRoute extends RouteBase {
  scope: "global";
  handle(state: ServerState, input: CommandInput): unknown;
}
export interface SessionRoute extends RouteBase {
  scope: "session";
  handle(command: SessionCommand): unknown;
}
export type Route = GlobalRoute | SessionRoute;

export function stringArg(body: Readonly<Record<string, unknown>>, key: string): string {
  const value = body[key];
  if (typeof value !== "string") {
    throw w3cError("invalid argument", `'${key}' must be a string, got ${JSON.stringify(value)}.`);
  }
  return value;
}
