/**
 * Discord's global rate (50 requests a second per bot) kept by every worker together. Each
 * worker's discord.js REST client keeps the per-route buckets and its own global count, which
 * is enough for one process; with several, this gate sits under it (in `makeRequest`) and takes
 * a slot from the pace ledger in Redis before each request, and a global 429 pauses every worker.
 * Interaction responses are not bound by the global rate (Discord's rule), so they pass at once.
 *
 * A post that is claimed in the database before it leaves (digests, alerts) takes its slot
 * beforehand (`reserve`): the Redis round trip then lies before the claim, and the request after
 * it passes the gate at once, so a worker killed between claim and request has nothing to wait for.
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

/** Wraps discord.js's `makeRequest`; `reserve` takes the slot of a coming request ahead of it. */
export type RestGate = ((next: MakeRequest) => MakeRequest) & {
  /**
   * Takes the global slot for the next request to `route` (`/channels/1/messages`) now: that
   * request, made within a second, passes without asking the ledger again.
   */
  reserve(route: string): Promise<void>;
};

/** A reserved slot not used within this long is left unused: its moment has passed. */
const RESERVED_MS = 1000;

/** `/channels/1/messages` of `https://discord.com/api/v10/channels/1/messages?x`. */
function routeOf(url: string): string {
  return new URL(url).pathname.replace(/^.*?\/v\d+(?=\/)/, "");
}

export function sharedRestGate(opts: RestGateOptions): RestGate {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms));
  /** Per route, until when each slot reserved for it may be used. */
  const reserved = new Map<string, number[]>();

  const takeSlot = async (): Promise<void> => {
    for (;;) {
      const slot = await opts.ledger.take(GLOBAL, now());
      if ("index" in slot) return;
      await sleep(Math.max(1, slot.waitMs));
    }
  };

  /** Uses up a slot reserved for `route`, if one is still good. */
  const useReserved = (route: string): boolean => {
    const slots = reserved.get(route);
    if (slots === undefined) return false;
    const t = now();
    const i = slots.findIndex((until) => until >= t);
    slots.splice(0, i < 0 ? slots.length : i + 1);
    if (slots.length === 0) reserved.delete(route);
    return i >= 0;
  };

  const wrap = (next: MakeRequest): MakeRequest => async (url, init) => {
    if (UNBOUND.test(url)) return next(url, init);
    if (!useReserved(routeOf(url))) await takeSlot();
    const res = await next(url, init);
    if (res.status === 429 && (res.headers.get("x-ratelimit-global") === "true" || res.headers.get("x-ratelimit-scope") === "global")) {
      const seconds = Number(res.headers.get("retry-after"));
      await opts.ledger.pause(now() + (Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000));
    }
    return res;
  };

  return Object.assign(wrap, {
    async reserve(route: string) {
      await takeSlot();
      const slots = reserved.get(route) ?? [];
      slots.push(now() + RESERVED_MS);
      reserved.set(route, slots);
    },
  });
}
