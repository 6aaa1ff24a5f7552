/**
 * Which workers that left firings `sending` are gone. Every worker delivers alerts, each
 * claiming a firing under its own name, and keeps a heartbeat lease `alerts.worker:<name>`
 * while it runs. A firing is marked `interrupted` (to be sent once more) only when its sender is gone:
 * its heartbeat ran out, or it was a process on this host that no longer runs (a restart after
 * a SIGKILL need not wait for the heartbeat to run out). A worker starting beside live ones
 * leaves their sends alone, so their outcomes are recorded.
 */
import { localHolderGone } from "../workers/local-holder.js";
import type { SubscriptionStore } from "../store/types.js";

export const HEARTBEAT_PREFIX = "alerts.worker:";

/**
 * Whether `sender` (`host:pid:random`) was a process on this host that no longer runs. One
 * with our own pid but not our name is a predecessor too when we are this process: in a
 * container node is PID 1 every time. Senders on other hosts are only ever outlived by their
 * heartbeat.
 */
export function goneFromThisHost(sender: string, ours: string): boolean {
  const gone = localHolderGone(sender);
  if (gone !== "this process") return gone;
  const [host, pid] = sender.split(":");
  return sender !== ours && ours.startsWith(`${host}:${pid}:`);
}

/**
 * The senders among `senders` that are gone, as seen by worker `ours`. A heartbeat that ran
 * out is taken for a moment and dropped: taking it is what proves it ran out, and dropping it
 * leaves no row behind. "" (a firing claimed before senders were recorded) is always gone.
 */
export async function goneSenders(
  leases: Pick<SubscriptionStore, "acquireLease" | "releaseLease">,
  senders: readonly string[],
  ours: string,
  now: number,
): Promise<string[]> {
  const gone: string[] = [];
  for (const sender of senders) {
    if (sender === ours) continue;
    const heartbeat = HEARTBEAT_PREFIX + sender;
    if (sender === "" || goneFromThisHost(sender, ours)) {
      gone.push(sender);
      if (sender !== "") await leases.releaseLease(heartbeat, sender);
    } else if (await leases.acquireLease(heartbeat, ours, 1, now)) {
      gone.push(sender);
      await leases.releaseLease(heartbeat, ours);
    }
  }
  return gone;
}
