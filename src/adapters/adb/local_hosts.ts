/**
 * The names this machine answers to besides the loopback spellings: its host name and the addresses of its
 * network interfaces, so an adb server named `tcp:<host name or LAN address>:PORT` is the same server (and the
 * same device lock) as `tcp:127.0.0.1:PORT`. Read from node:os when an adb client is built; empty if refused.
 */
import { hostname, networkInterfaces } from "node:os";

export function thisMachineHosts(): string[] {
  try {
    const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
    return [hostname(), ...addresses].filter((name) => name !== "");
  } catch {
    return [];
  }
}
