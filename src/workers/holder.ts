/**
 * The one name a process holds every store lease under: `host:pid:WORKER_ID:random`. The host
 * and pid let a later process on this machine see that the holder is gone (`local-holder.ts`),
 * WORKER_ID lets an operator tell whose it is, and the random part makes a restart, or a second
 * process started with the same WORKER_ID by mistake, a holder of its own.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

export function processHolder(workerId: string): string {
  return `${hostname()}:${process.pid}:${workerId}:${randomUUID()}`;
}

/** The WORKER_ID in a holder of that form (it may itself hold colons), or undefined for any other name. */
export function holderWorker(holder: string): string | undefined {
  const parts = holder.split(":");
  if (parts.length < 4 || !/^\d+$/.test(parts[1]!)) return undefined;
  return parts.slice(2, -1).join(":");
}
