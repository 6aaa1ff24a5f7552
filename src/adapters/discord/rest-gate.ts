/**
 * Discord's global rate (50 requests a second per bot) kept by every worker together. Each
 * worker's discord.js REST client keeps the per-route buckets and its own global count, which
 * is enough for one process; with several, this gate sits under it (in `makeRequest`) and takes
 * a slot from the pace ledger in Redis before each request, and a global 429 pauses every worker.
 * Interaction responses are not bound by the global rate (Discord's rule), so they pass at once.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { RESTOptions } from "discord.js";
import type { PaceLedger } from "../../digest/pace-ledger.js";

type MakeRequest = RESTOptions["makeRequest"];

/** Discord's global limit per bot. */
export const DISCORD_GLOBAL_PER_SECOND = 50;

/** Interaction callbacks and the interaction webhook (edits, follow-ups). */
const UNBOUND = /\/(?:interactions\/\d+\/[^/]+\/callback|webhooks\/\d+\/[^/?]+)/;
/** The ledger is asked for one thing: the bot's global slot. */
const GLOBAL = ["global"];

export interface RestGateOptions {
  ledger: PaceLedger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export function sharedRestGate(opts: RestGateOptions): (next: MakeRequest) => MakeRequest {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms));
  return (next) => async (url, init) => {
    if (UNBOUND.test(url)) return next(url, init);
    for (;;) {
      const slot = await opts.ledger.take(GLOBAL, now());
      if ("index" in slot) break;
      await sleep(Math.max(1, slot.waitMs));
    }
    const res = await next(url, init);
    if (res.status === 429 && (res.headers.get("x-ratelimit-global") === "true" || res.headers.get("x-ratelimit-scope") === "global")) {
      const seconds = Number(res.headers.get("retry-after"));
      await opts.ledger.pause(now() + (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000));
    }
    return res;
  };
}
