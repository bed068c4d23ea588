/**
 * The sessions of one simulated UiAutomator2 server, with the lifecycle measured on real Appium 3.8
 * over the sim (tests/sim/appium_uia2.test.ts): a second session replaces the first, which then
 * answers `invalid session id` to everything (DELETE too) yet stays listed in /appium/sessions; a
 * crashed session (fault `uia2SessionDiesAfter`) answers `invalid session id` until DELETE removes it.
 * Only the newest MAX_DEAD_SESSIONS replaced/crashed sessions stay listed. A successful DELETE calls
 * `onDeleted` (the server process quits); a refused one (unknown or replaced id) does not.
 */
import { randomUUID } from "node:crypto";
import { ElementStore } from "./element_store.ts";
import { DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS } from "./idle.ts";
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
  state: "alive" | "replaced" | "crashed";
}

function invalidSession(id: string): Error {
  return w3cError("invalid session id", `A session is either terminated or not started (id '${id}'). Create a new session.`);
}

/** Replaced or crashed sessions kept in GET /appium/sessions; older ones are forgotten. */
export const MAX_DEAD_SESSIONS = 50;

export class SessionRegistry {
  private readonly sessions: Uia2Session[] = [];
  readonly #onDeleted: () => void;

  constructor(onDeleted: () => void = () => {}) {
    this.#onDeleted = onDeleted;
  }

  create(capabilities: Record<string, unknown>, now: number): Uia2Session {
    for (const s of this.sessions) if (s.state === "alive") s.state = "replaced";
    const session: Uia2Session = {
      id: randomUUID(),
      created: now,
      capabilities,
      elements: new ElementStore(),
      settings: { waitForIdleTimeout: DEFAULT_WAIT_FOR_IDLE_TIMEOUT_MS },
      commands: 0,
      state: "alive",
    };
    this.sessions.push(session);
    const dead = this.sessions.filter((s) => s.state !== "alive");
    for (const s of dead.slice(0, Math.max(0, dead.length - MAX_DEAD_SESSIONS))) this.sessions.splice(this.sessions.indexOf(s), 1);
    return session;
  }

  /** The live session with this id, or `invalid session id`. */
  get(id: string): Uia2Session {
    const session = this.sessions.find((s) => s.id === id);
    if (session === undefined || session.state !== "alive") throw invalidSession(id);
    return session;
  }

  /** Ends a live or crashed session; a replaced or unknown one answers `invalid session id` and stays listed. */
  delete(id: string): void {
    const session = this.sessions.find((s) => s.id === id);
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
    return this.sessions.map((s) => ({ id: s.id, created: s.created, capabilities: s.capabilities }));
  }

  clear(): void {
    this.sessions.length = 0;
  }
}
