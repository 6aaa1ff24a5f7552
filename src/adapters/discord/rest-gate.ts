/**
 * Discord's limits kept by every worker together: the global rate (50 requests a second per bot)
 * and each route's limit (a channel's 5 posts in 5 s). Each worker's discord.js REST client keeps
 * the buckets it sees, which is enough for one process; with several, this gate sits under it (in
 * `makeRequest`): before each request it takes the route's turn (`route-pace.ts`, in Redis) and
 * then a global slot from the pace ledger, and from each answer the route's books learn its limit
 * and window from Discord's rate-limit headers. A global 429 pauses every worker, a route's 429 or
 * spent bucket holds that route for all of them.
 * Interaction responses are not bound by the global rate (Discord's rule) and each interaction's
 * routes are its own, answered by one worker, so they pass at once.
 *
 * A post that is claimed in the database before it leaves (digests, alerts) takes its turns
 * beforehand (`reserve`): the Redis round trips then lie before the claim, and the request after
 * it passes the gate at once, so a worker killed between claim and request has nothing to wait for.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { RESTOptions, ResponseLike } from "discord.js";
import type { PaceLedger } from "../../digest/pace-ledger.js";
import { routeOf, type Route, type RouteAnswer, type RoutePace } from "./route-pace.js";

type MakeRequest = RESTOptions["makeRequest"];

/** Discord's global limit per bot. */
export const DISCORD_GLOBAL_PER_SECOND = 50;

/** Interaction callbacks and the interaction webhook (edits, follow-ups). */
const UNBOUND = /\/(?:interactions\/\d+\/[^/]+\/callback|webhooks\/\d+\/[^/?]+)/;
/** The ledger is asked for one thing: the bot's global slot. */
const GLOBAL = ["global"];

/**
 * A spent route is held this long past its reset. discord.js in the worker that saw the bucket
 * spent waits 50 ms past the reset itself (its `offset`) and refuses a channel post before then
 * (rejectOnRateLimit); the rest covers the round trip to Redis before discord.js reads the answer.
 */
const HOLD_PAST_RESET_MS = 100;

export interface RestGateOptions {
  /** The bot's global rate. */
  ledger: PaceLedger;
  /** The routes' books. */
  routes: RoutePace;
  /** Time a request waited for its route's turn and the global slot (metrics). */
  onWait?: (ms: number) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Wraps discord.js's `makeRequest`; `reserve` takes the turns of a coming request ahead of it. */
export type RestGate = ((next: MakeRequest) => MakeRequest) & {
  /**
   * Takes the turns for the next request of `method` to `path` (`/channels/1/messages`) now:
   * that request, made within a second, passes without asking the books again.
   */
  reserve(method: string, path: string): Promise<void>;
};

/** A reserved turn not used within this long is left unused: its moment has passed. */
const RESERVED_MS = 1000;

/** `/channels/1/messages` of `https://discord.com/api/v10/channels/1/messages?x`. */
function pathOf(url: string): string {
  return new URL(url).pathname.replace(/^.*?\/v\d+(?=\/)/, "");
}

/** A header's number, when it carries one. */
function headerNumber(res: ResponseLike, name: string): number | undefined {
  const raw = res.headers.get(name);
  const n = raw === null || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/** What an answer tells of its route: the bucket's headers, and until when the route must rest. */
function readAnswer(res: ResponseLike, at: number): RouteAnswer {
  const limit = headerNumber(res, "x-ratelimit-limit");
  const remaining = headerNumber(res, "x-ratelimit-remaining");
  const resetAfter = headerNumber(res, "x-ratelimit-reset-after");
  const bucket = limit !== undefined && limit > 0 && remaining !== undefined && resetAfter !== undefined ? { limit, remaining, resetAfterMs: resetAfter * 1000 } : undefined;
  const holds: number[] = [];
  if (bucket !== undefined && bucket.remaining <= 0) holds.push(at + bucket.resetAfterMs + HOLD_PAST_RESET_MS);
  const retryAfter = headerNumber(res, "retry-after");
  if (res.status === 429 && !isGlobal429(res)) holds.push(at + (retryAfter !== undefined && retryAfter > 0 ? retryAfter * 1000 : 1000) + HOLD_PAST_RESET_MS);
  return { at, ...(bucket ? { bucket } : {}), ...(holds.length > 0 ? { holdUntil: Math.max(...holds) } : {}) };
}

function isGlobal429(res: ResponseLike): boolean {
  return res.status === 429 && (res.headers.get("x-ratelimit-global") === "true" || res.headers.get("x-ratelimit-scope") === "global");
}

export function sharedRestGate(opts: RestGateOptions): RestGate {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => delay(ms));
  /** Per route, the turns reserved for it: until when each may be used, and its stamp in the route's books. */
  const reserved = new Map<string, { until: number; stamp: string | undefined }[]>();

  /** The route's turn, then the global slot: a global slot is not spent waiting for a route. */
  const takeTurns = async (route: Route): Promise<string | undefined> => {
    const from = now();
    let stamp: string | undefined;
    for (;;) {
      const slot = await opts.routes.take(route, now());
      if ("stamp" in slot) {
        stamp = slot.stamp;
        break;
      }
      await sleep(Math.max(1, slot.waitMs));
    }
    for (;;) {
      const slot = await opts.ledger.take(GLOBAL, now());
      if ("index" in slot) break;
      await sleep(Math.max(1, slot.waitMs));
    }
    opts.onWait?.(now() - from);
    return stamp;
  };

  /** Uses up a turn reserved for `route`, if one is still good. */
  const useReserved = (route: Route): { stamp: string | undefined } | undefined => {
    const turns = reserved.get(route.key);
    if (turns === undefined) return undefined;
    const t = now();
    const i = turns.findIndex((turn) => turn.until >= t);
    const used = i < 0 ? undefined : turns[i];
    turns.splice(0, i < 0 ? turns.length : i + 1);
    if (turns.length === 0) reserved.delete(route.key);
    return used;
  };

  const wrap = (next: MakeRequest): MakeRequest => async (url, init) => {
    if (UNBOUND.test(url)) return next(url, init);
    const route = routeOf(init.method ?? "GET", pathOf(url));
    const stamp = (useReserved(route) ?? { stamp: await takeTurns(route) }).stamp;
    const res = await next(url, init);
    // Recorded before discord.js reads the answer: its next request on the route finds the books up to date.
    await opts.routes.answered(route, stamp, readAnswer(res, now()));
    if (isGlobal429(res)) {
      const seconds = headerNumber(res, "retry-after");
      await opts.ledger.pause(now() + (seconds !== undefined && seconds > 0 ? seconds * 1000 : 1000));
    }
    return res;
  };

  return Object.assign(wrap, {
    async reserve(method: string, path: string) {
      const route = routeOf(method, path);
      const stamp = await takeTurns(route);
      const turns = reserved.get(route.key) ?? [];
      turns.push({ until: now() + RESERVED_MS, stamp });
      reserved.set(route.key, turns);
    },
  });
}
