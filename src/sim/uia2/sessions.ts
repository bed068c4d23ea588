/**
 * The sessions of one simulated UiAutomator2 server. Like the real stack, one device runs one
 * session: creating a second kills the first, which then answers `invalid session id` but stays
 * listed in GET /appium/sessions (the zombie entry real Appium 3 shows; notes §3). A session also
 * dies when the device's `uia2SessionDiesAfter` fault says so. Deleting removes it from the list.
 */
import { randomUUID } from "node:crypto";
import { ElementStore } from "./element_store.ts";
import { w3cError } from "./w3c_error.ts";

export interface Uia2Session {
  readonly id: string;
  readonly created: number;
  readonly capabilities: Record<string, unknown>;
  readonly elements: ElementStore;
  /** Commands served so far (for the session-dies fault). */
  commands: number;
  alive: boolean;
}

export class SessionRegistry {
  private readonly sessions: Uia2Session[] = [];

  create(capabilities: Record<string, unknown>, now: number): Uia2Session {
    for (const s of this.sessions) s.alive = false;
    const session: Uia2Session = { id: randomUUID(), created: now, capabilities, elements: new ElementStore(), commands: 0, alive: true };
    this.sessions.push(session);
    return session;
  }

  /** The live session with this id, or `invalid session id`. */
  get(id: string): Uia2Session {
    const session = this.sessions.find((s) => s.id === id);
    if (session === undefined || !session.alive) {
      throw w3cError("invalid session id",
        `A session is either terminated or not started (id '${id}'). Create a new session.`);
    }
    return session;
  }

  /** Deletes a live session; a killed or unknown one answers `invalid session id` and stays as it is. */
  delete(id: string): void {
    const session = this.get(id);
    session.alive = false;
    this.sessions.splice(this.sessions.indexOf(session), 1);
  }

  /** The session crashed (fault): it answers `invalid session id` and leaves the list, as Appium cleans it up. */
  kill(session: Uia2Session): void {
    session.alive = false;
    const at = this.sessions.indexOf(session);
    if (at !== -1) this.sessions.splice(at, 1);
  }

  /** What GET /appium/sessions lists: live sessions and killed-but-not-deleted ones. */
  list(): { id: string; created: number; capabilities: Record<string, unknown> }[] {
    return this.sessions.map((s) => ({ id: s.id, created: s.created, capabilities: s.capabilities }));
  }

  /** The live session, if any (the device-side server has at most one). */
  active(): Uia2Session | undefined {
    return this.sessions.find((s) => s.alive);
  }

  clear(): void {
    this.sessions.length = 0;
  }
}
