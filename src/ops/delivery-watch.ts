/**
 * Which chats' deliveries fail, and why, as the operator's page lists them. The platform's
 * answer to each delivery is read where every kind of scheduled post (digests, alerts, and any
 * kind added later) passes: its paced queue. A kind wraps its queues once; a chat leaves the
 * list when a delivery to it succeeds again. Chats are kept by id only, never a message.
 */
import type { DeliveryResult, PacedQueue } from "../digest/paced-queue.js";
import type { Platform } from "../store/types.js";

export interface FailingChat {
  kind: string;
  platform: string;
  chatId: string;
  /** The last failure's outcome: gone, forbidden, failed, retry or expired. */
  outcome: string;
  /** What the platform said, as the adapter read it. */
  reason: string;
  /** Failures since the chat's last success. */
  count: number;
  lastAt: number;
}

export interface DeliveryWatch {
  /** `queues` with every answer noted under `kind` (the name of its `chainpulse_<kind>_deliveries_total`). */
  watch<Q extends Partial<Record<Platform, PacedQueue>>>(kind: string, queues: Q): Q;
  /** The chats whose last delivery failed, most recent first. */
  failing(): FailingChat[];
  /** When `kind` last had an answer from a platform, and which. */
  last(kind: string): { at: number; outcome: string } | undefined;
}

/** The list is bounded: the oldest failures make way. */
const MAX_FAILING = 200;

function reasonOf(r: DeliveryResult): string {
  switch (r.kind) {
    case "gone":
    case "forbidden":
    case "failed":
      return r.reason;
    case "retry":
      return r.reason ?? `rate limited, retry after ${Math.ceil(r.afterMs / 1000)} s`;
    case "expired":
      return "not sent before its deadline";
    default:
      return r.kind;
  }
}

export function createDeliveryWatch(now: () => number = Date.now): DeliveryWatch {
  const failing = new Map<string, FailingChat>();
  const last = new Map<string, { at: number; outcome: string }>();
  const note = (kind: string, platform: string, chatId: string, r: DeliveryResult): void => {
    // A queue that stopped, a job no longer wanted, or one another worker sends (unclaimed here)
    // got no answer from anyone.
    if (r.kind === "stopped" || r.kind === "unclaimed") return;
    const at = now();
    last.set(kind, { at, outcome: r.kind });
    const key = JSON.stringify([kind, platform, chatId]);
    const before = failing.get(key);
    failing.delete(key);
    if (r.kind === "delivered" || r.kind === "moved") return;
    failing.set(key, { kind, platform, chatId, outcome: r.kind, reason: reasonOf(r), count: (before?.count ?? 0) + 1, lastAt: at });
    if (failing.size > MAX_FAILING) failing.delete(failing.keys().next().value as string);
  };
  return {
    watch(kind, queues) {
      const out: Partial<Record<Platform, PacedQueue>> = {};
      for (const [platform, q] of Object.entries(queues) as [Platform, PacedQueue | undefined][]) {
        if (q === undefined) continue;
        out[platform] = { ...q, push: (job) => q.push(job).then((r) => (note(kind, platform, job.chatId, r), r)) };
      }
      return out as typeof queues;
    },
    failing: () => [...failing.values()].reverse(),
    last: (kind) => last.get(kind),
  };
}
