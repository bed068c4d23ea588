/**
 * The on-device UiAutomator2 server process as the rest of the simulated device sees it: once the
 * server has really ended a session (DELETE answered 200), the process quits, which ends the
 * `am instrument -w` that runs it. One explicit channel per device object, so the adb shell and the
 * UiAutomator2 server need not know each other; a refused DELETE never signals.
 */

const listeners = new WeakMap<object, Set<() => void>>();

/** Calls `listener` each time the device's UiAutomator2 server quits; returns the unsubscribe. */
export function onUia2ServerQuit(device: object, listener: () => void): () => void {
  const set = listeners.get(device) ?? new Set<() => void>();
  set.add(listener);
  listeners.set(device, set);
  return () => void set.delete(listener);
}

/** The device's UiAutomator2 server quit (its session was deleted). */
export function uia2ServerQuit(device: object): void {
  for (const listener of [...(listeners.get(device) ?? [])]) listener();
}
