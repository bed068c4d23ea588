/**
 * Small shared test helpers: the error a promise rejects with (failing the test when it resolves),
 * the same narrowed to our HarnessError, and a loopback port nobody listens on.
 */
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { HarnessError } from "../../src/errors.ts";

/** The error `promise` rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail("expected the call to fail");
}

/** The HarnessError `promise` rejects with; fails the test on a resolve or any other error. */
export async function rejection(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await failure(promise);
  assert.ok(error instanceof HarnessError, `a HarnessError, got ${String(error)}`);
  return error;
}

/** A port nobody listens on right now: bind port 0 on loopback, read it, close. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("could not read the port of a loopback socket");
  return address.port;
}
