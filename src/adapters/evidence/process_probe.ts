/**
 * Port and real adapter for what the device lock asks about processes: this process's id and host,
 * whether another pid is alive (signal 0; EPERM means alive but not ours), and, where the system
 * says (Linux /proc), when a pid started, so a reused pid is not mistaken for the lock's holder.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

export interface ProcessProbe {
  readonly pid: number;
  readonly hostName: string;
  isProcessAlive(pid: number): boolean;
  /** An opaque start stamp for the pid, or null where the system does not tell. */
  startStamp(pid: number): string | null;
}

export function createNodeProcessProbe(): ProcessProbe {
  return {
    pid: process.pid,
    hostName: hostname(),
    isProcessAlive(pid) {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as { code?: string }).code === "EPERM";
      }
    },
    startStamp(pid) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        // Field 22 (starttime), counted after the parenthesised command name, which may hold spaces.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return fields[19] ?? null;
      } catch {
        return null;
      }
    },
  };
}
