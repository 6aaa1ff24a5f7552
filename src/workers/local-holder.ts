/**
 * Whether a lease holder named `host:pid:…` was a process on this machine that no longer
 * runs: such a holder's lease can be taken at once instead of waiting for it to run out.
 */
import { hostname } from "node:os";

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
