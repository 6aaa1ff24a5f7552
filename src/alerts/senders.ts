/**
 * Which workers that left firings `sending` are gone. Every worker delivers alerts, each
 * claiming a firing under its own name, and keeps a heartbeat lease `alerts.worker:<name>`
 * while it runs. A firing is marked `interrupted` (to be sent once more) only when its sender is gone:
 * its heartbeat ran out, or it was a process on this host that no longer runs (a restart after
 * a SIGKILL need not wait for the heartbeat to run out). A worker starting beside live ones
 * leaves their sends alone, so their outcomes are recorded.
 */
import { deadLocalHolder } from "../workers/local-holder.js";
import type { SubscriptionStore } from "../store/types.js";

export const HEARTBEAT_PREFIX = "alerts.worker:";

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
    // Senders on other hosts are only ever outlived by their heartbeat.
    if (sender === "" || deadLocalHolder(sender, ours)) {
      gone.push(sender);
      if (sender !== "") await leases.releaseLease(heartbeat, sender);
    } else if (await leases.acquireLease(heartbeat, ours, 1, now)) {
      gone.push(sender);
      await leases.releaseLease(heartbeat, ours);
    }
  }
  return gone;
}
