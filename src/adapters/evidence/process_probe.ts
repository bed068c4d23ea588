/**
 * Port and real adapter for what the device lock asks about processes: this process's id and host,
 * and whether another pid is still alive (signal 0; EPERM means alive but not ours).
 */
import { hostname } from "node:os";

export interface ProcessProbe {
  readonly pid: number;
  readonly hostName: string;
  isProcessAlive(pid: number): boolean;
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
  };
}
