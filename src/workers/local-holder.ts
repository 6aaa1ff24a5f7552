/**
 * Whether a lease holder named `host:pid:…` was a process on this machine that no longer
 * runs: such a holder's lease can be taken at once instead of waiting for it to run out.
 */
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { SubscriptionStore } from "../store/types.js";

/**
 * `true` when `holder` names a process on this host that is gone, `false` when it names one
 * that runs or another host (or no pid), and `"this process"` when it names this very pid
 * (after a restart in a container, PID 1 again), which each caller judges by its own names.
 */
export function localHolderGone(holder: string): boolean | "this process" {
  const [host, pid] = holder.split(":");
  if (host !== hostname() || !/^\d+$/.test(pid ?? "")) return false;
  if (Number(pid) === process.pid) return "this process";
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Whether lease holder `current` was a process on this host that no longer runs, as seen by
 * holder `ours`. One with our own pid but not our name is a predecessor too: in a container
 * node is PID 1 every time, and one process holds a lease under one name.
 */
export function deadLocalHolder(current: string, ours: string): boolean {
  const gone = localHolderGone(current);
  if (gone !== "this process") return gone;
  const [host, pid] = current.split(":");
  return current !== ours && ours.startsWith(`${host}:${pid}:`);
}

type Leases = Pick<SubscriptionStore, "acquireLease" | "leaseHolder" | "takeOverLease">;

/**
 * Takes or renews lease `name` for `holder`, and takes it over at once from a process of this
 * host that no longer runs (a restart after a SIGKILL), rather than waiting for its term to
 * run out: for the sweep that is two periods, up to two hours. Holders on other hosts are only
 * ever outlived by expiry. `who` names the role in the log.
 */
export async function leadOrTakeOver(leases: Leases, name: string, holder: string, ttlMs: number, at: number, who: string, log: Logger): Promise<boolean> {
  if (await leases.acquireLease(name, holder, ttlMs, at)) return true;
  const current = await leases.leaseHolder(name);
  if (current === undefined || !deadLocalHolder(current, holder)) return false;
  // Several restarted workers may find the same dead holder: only the one that took it says so.
  const taken = await leases.takeOverLease(name, current, holder, ttlMs, at);
  if (taken) log.info({ previous: current }, `the previous ${who} on this host is gone: taking over its lease`);
  return taken;
}
