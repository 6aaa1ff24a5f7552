/**
 * Whether the market service answers, as the calls the bot made lately say: /readyz cannot ask
 * the service itself (a check through the cache is answered by the cache for as long as it
 * holds, and a call of its own would spend the plan), so it reads the outcomes of the calls
 * people, alerts and feeds made. Any answer of the service, a refusal included, means it is
 * there; a timeout, a connection that failed or a 5xx means it is not.
 */
import type { MarketCallEvent } from "./client.js";
import type { MarketErrorKind } from "./errors.js";

/** Outcomes that mean the service did not answer. */
const UNREACHED: ReadonlySet<MarketErrorKind> = new Set(["timeout", "network", "server"]);

/** How long calls must have failed, with none answered, before the service counts as gone. */
export const UNREACHED_AFTER_MS = 30_000;
/** And how many failed calls in a row: one slow call is not an outage. */
const UNREACHED_CALLS = 3;

export interface MarketReachability {
  /** Notes the outcome of a call that ended at `at` (epoch ms). */
  note(event: Pick<MarketCallEvent, "outcome" | "attempts">, at: number): void;
  /** Since when, and how, the service has not answered at `now`; undefined while it answers. */
  unreached(now: number): { since: number; kind: MarketErrorKind } | undefined;
}

export function createMarketReachability(): MarketReachability {
  let streak: { since: number; calls: number; kind: MarketErrorKind } | undefined;
  return {
    note(event, at) {
      // A call that never left the bot (its own pace or daily units held it, a parameter it
      // refused, a closing client) says nothing of the service, either way.
      if (event.attempts === 0) return;
      if (event.outcome === "ok" || !UNREACHED.has(event.outcome)) {
        streak = undefined;
        return;
      }
      streak = { since: streak?.since ?? at, calls: (streak?.calls ?? 0) + 1, kind: event.outcome };
    },
    unreached(now) {
      if (streak === undefined || streak.calls < UNREACHED_CALLS || now - streak.since < UNREACHED_AFTER_MS) return undefined;
      return { since: streak.since, kind: streak.kind };
    },
  };
}
