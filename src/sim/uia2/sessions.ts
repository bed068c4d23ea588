/**
 * The sessions of one simulated UiAutomator2 server, with the lifecycle measured on real Appium 3.8
 * over the sim (tests/sim/appium_uia2.test.ts): a second session replaces the first, which then
 * answers `invalid session id` to everything (DELETE too) yet stays listed in /appium/sessions; a
 * crashed session (fault `uia2SessionDiesAfter`) answers `invalid session id` until DELETE removes it.
 * Only the newest MAX_DEAD_SESSIONS replaced/crashed sessions stay listed. A successful DELETE calls
 * `onDeleted` (the server process quits); a refused one (unknown or replaced id) does not.
 * A session opened as through Appium (an `appium:` capability) ends like Appium's after
 * `appium:newCommandTimeout` seconds without a command (default 60, 0 never), whether its client is alive
 * or dead, as a DELETE would; one the Appium driver opened (bare capabilities) has none, Appium times it.
 * The expiry is applied at the next request, the first moment a client could see it.
 */
import { randomUUID } from "node:crypto";
import { ElementStore } from "./element_store.ts";
import { w3cError } from "./w3c_error.ts";

export interface Uia2Session {
  readonly id: string;
  readonly created: number;
  readonly capabilities: Record<string, unknown>;
  readonly elements: ElementStore;
  /** The server-side settings the simulator honours (idle.ts), reset to their defaults by every new session. */
  settings: { waitForIdleTimeout: number };
  /** Commands served so far (for the session-dies fault). */
  commands: number;
  /** When a command last named it (ms), and how long it may wait for the next (null: forever). */
  lastCommandAt: number;
  readonly newCommandTimeoutMs: number | null;
  state: "alive" | "replaced" | "crashed";
}

/** A new session's `waitForIdleTimeout` setting (idle.ts): WaitForIdleTimeout.DEFAULT_VALUE (Configurator's mWaitForIdleTimeout). */
export const DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS = 10_000;

function invalidSession(id: string): Error {
  return w3cError("invalid session id", `A session is either terminated or not started (id '${id}'). Create a new session.`);
}

/** Replaced or crashed sessions kept in GET /appium/sessions; older ones are forgotten. */
export const MAX_DEAD_SESSIONS = 50;

/** Appium's newCommandTimeout when the client names none (seconds). */
export const DEFAULT_NEW_COMMAND_TIMEOUT_S = 60;

/** The idle limit of a session with these requested capabilities, in ms (null: none). */
export function newCommandTimeoutMs(requested: Record<string, unknown>): number | null {
  if (!Object.keys(requested).some((key) => key.startsWith("appium:"))) return null;
  const given = requested["appium:newCommandTimeout"];
  const seconds = typeof given === "number" && Number.isFinite(given) && given >= 0 ? given : DEFAULT_NEW_COMMAND_TIMEOUT_S;
  return seconds === 0 ? null : seconds * 1000;
}

export class SessionRegistry {
  private readonly sessions: Uia2Session[] = [];
  readonly #onDeleted: () => void;
  readonly #now: () => number;

  constructor(onDeleted: () => void = () => {}, now: () => number = () => Date.now()) {
    this.#onDeleted = onDeleted;
    this.#now = now;
  }

  /** Ends every session whose client sent no command within its newCommandTimeout, as Appium does. */
  #expire(): void {
    const now = this.#now();
    for (const s of [...this.sessions]) {
      if (s.newCommandTimeoutMs === null || now - s.lastCommandAt <= s.newCommandTimeoutMs) continue;
      this.sessions.splice(this.sessions.indexOf(s), 1);
      if (s.state === "alive") this.#onDeleted();
    }
  }

  /** `requested`: the capabilities the client asked for (they set the newCommandTimeout). */
  create(capabilities: Record<string, unknown>, requested: Record<string, unknown> = capabilities): Uia2Session {
    this.#expire();
    for (const s of this.sessions) if (s.state === "alive") s.state = "replaced";
    const now = this.#now();
    const session: Uia2Session = {
      id: randomUUID(),
      created: now,
      capabilities,
      elements: new ElementStore(),
      settings: { waitForIdleTimeout: DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS },
      commands: 0,
      lastCommandAt: now,
      newCommandTimeoutMs: newCommandTimeoutMs(requested),
      state: "alive",
    };
    this.sessions.push(session);
    const dead = this.sessions.filter((s) => s.state !== "alive");
    for (const s of dead.slice(0, Math.max(0, dead.length - MAX_DEAD_SESSIONS))) this.sessions.splice(this.sessions.indexOf(s), 1);
    return session;
  }

  /** The live session with this id, or `invalid session id`. */
  get(id: string): Uia2Session {
    const session = this.#named(id);
    if (session === undefined || session.state !== "alive") throw invalidSession(id);
    return session;
  }

  /** The listed session with this id, after expiry; a command naming it restarts its newCommandTimeout. */
  #named(id: string): Uia2Session | undefined {
    this.#expire();
    const session = this.sessions.find((s) => s.id === id);
    if (session !== undefined) session.lastCommandAt = this.#now();
    return session;
  }

  /** Ends a live or crashed session; a replaced or unknown one answers `invalid session id` and stays listed. */
  delete(id: string): void {
    const session = this.#named(id);
    if (session === undefined || session.state === "replaced") throw invalidSession(id);
    this.sessions.splice(this.sessions.indexOf(session), 1);
    this.#onDeleted();
  }

  /** The session crashed (fault): it answers `invalid session id` until someone deletes it. */
  crash(session: Uia2Session): void {
    session.state = "crashed";
    const dead = this.sessions.filter((s) => s.state !== "alive");
    if (dead.length > MAX_DEAD_SESSIONS) this.sessions.splice(this.sessions.indexOf(dead[0]!), 1);
  }

  /** What GET /appium/sessions lists: every session not deleted, dead ones included. */
  list(): { id: string; created: number; capabilities: Record<string, unknown> }[] {
    this.#expire();
    return this.sessions.map((s) => ({ id: s.id, created: s.created, capabilities: s.capabilities }));
  }

  clear(): void {
    this.sessions.length = 0;
  }
}
