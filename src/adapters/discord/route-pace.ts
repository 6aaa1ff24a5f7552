/**
 * Discord's limits per route: each route (a method and a path with its ids, the major one kept:
 * `POST /channels/:id/messages` in channel 1) takes so many requests per window, counted for the
 * bot as a whole, so several workers must count together. Discord tells a route's limit in the
 * headers of every answer (`X-RateLimit-Limit`, `-Remaining`, `-Reset-After`); until the first
 * answer a route known to the bot starts from the limit Discord has long kept for it, and a route
 * without one is not counted. This file keeps the books in process; `src/redis/route-pace.ts`
 * keeps them in Redis for every worker.
 *
 * Routes that Discord puts in one bucket (`X-RateLimit-Bucket`) are counted each on its own: a
 * worker learns a bucket only from an answer, and moving a route's count to its bucket then would
 * start it from nothing with requests in flight. The bot's sends are channel posts, one route.
 */
import { LRUCache } from "lru-cache";
import { entryBound } from "../../lru-bound.js";

/** The requests one count holds: `kind` is what Discord limits alike, `key` the count (kind and major id). */
export interface Route {
  kind: string;
  key: string;
}

/** A route's limit: `limit` requests in any `windowMs`. */
export interface RouteLimit {
  limit: number;
  windowMs: number;
}

/** A request's turn on its route (`stamp` names it; undefined when the route is not counted), or how long until one may be free. */
export type RouteSlot = { stamp: string | undefined } | { waitMs: number };

/** What an answer told of its route. */
export interface RouteAnswer {
  /** When it came (epoch ms): the request counts from here on, as it reached Discord by then. */
  at: number;
  /** What the rate-limit headers said of the route's bucket, when they said it. */
  bucket?: { limit: number; remaining: number; resetAfterMs: number };
  /** No request on the route before this (epoch ms): its bucket is spent, or Discord said to wait. */
  holdUntil?: number;
}

export interface RoutePace {
  /** Takes a turn on `route` at `t`, counting it at once, or says how long until one may be free. */
  take(route: Route, t: number): Promise<RouteSlot>;
  /** The request `stamp` on `route` was answered: it counts from the answer; the route's limit is learned from it. */
  answered(route: Route, stamp: string | undefined, answer: RouteAnswer): Promise<void>;
}

/**
 * A turn taken and not yet answered counts as if made now for up to this long: its request may
 * reach Discord any time before its answer (a turn reserved before a claim is used up to a second
 * later, on a loaded machine later still), so the window cannot be counted from when it was
 * taken. Past this the request is given up for lost (discord.js's own timeout is 15 s).
 */
export const IN_FLIGHT_MS = 15_000;
/** How soon a turn is asked for again while the route is full of requests in flight. */
export const IN_FLIGHT_RETRY_MS = 25;

/** Discord's limit on the messages of one channel, the one it has kept for years: 5 in 5 s. */
export const CHANNEL_MESSAGES: RouteLimit = { limit: 5, windowMs: 5000 };

/**
 * The limits a route starts from before its first answer. Discord's documentation asks bots to
 * read the headers rather than hard-code limits, which the books do from the first answer on.
 */
export const ROUTE_DEFAULTS: ReadonlyMap<string, RouteLimit> = new Map([["POST /channels/:id/messages", CHANNEL_MESSAGES]]);

/** Discord's snowflakes as discord.js finds them in a route. */
const ID = /\d{17,19}/g;
/** The major parameter: a webhook's id and token, or a channel's, server's or webhook's id. */
const MAJOR = /^\/webhooks\/(\d{17,19}\/[^/?]+)|^\/(?:channels|guilds|webhooks)\/(\d{17,19})/;

/** The route of a request to `path` (after `/api/v10`), as discord.js buckets it. */
export function routeOf(method: string, path: string): Route {
  const match = MAJOR.exec(path);
  const major = match?.[2] ?? match?.[1] ?? "global";
  const kind = `${method.toUpperCase()} ${path.replace(ID, ":id").replace(/\/reactions\/.*/, "/reactions/:reaction").replace(/\/webhooks\/:id\/[^/?]+/, "/webhooks/:id/:token")}`;
  return { kind, key: `${kind} ${major}` };
}

/**
 * What the books learn from an answer's bucket: its limit, and its window. `Reset-After` is the
 * time left of the bucket's window, the whole window for the first request in it (one used of the
 * limit); any other answer only shows the window is at least that long.
 */
export function learnLimit(known: RouteLimit | undefined, bucket: NonNullable<RouteAnswer["bucket"]>): RouteLimit {
  const reset = Math.ceil(bucket.resetAfterMs);
  const windowMs = bucket.remaining === bucket.limit - 1 ? reset : Math.max(known?.windowMs ?? 0, reset);
  return { limit: bucket.limit, windowMs };
}

/** Routes whose counts the books in process keep: far more channels than a minute's posts reach. */
const ROUTES_KEPT = 10_000;

/** The books in this process. */
export function memoryRoutePace(): RoutePace {
  const learned = new Map<string, RouteLimit>();
  /** Per route's count, its recent requests: stamp → when each counts from (past now while in flight). */
  const counts = new LRUCache<string, Map<string, number>>(entryBound(ROUTES_KEPT));
  const holds = new LRUCache<string, number>(entryBound(ROUTES_KEPT));
  let seq = 0;

  const limitOf = (kind: string): RouteLimit | undefined => learned.get(kind) ?? ROUTE_DEFAULTS.get(kind);

  return {
    async take(route, t) {
      const held = (holds.get(route.key) ?? 0) - t;
      if (held > 0) return { waitMs: Math.ceil(held) };
      holds.delete(route.key);
      const limit = limitOf(route.kind);
      if (limit === undefined) return { stamp: undefined };
      const stamps = counts.get(route.key) ?? new Map<string, number>();
      for (const [stamp, at] of stamps) if (at <= t - limit.windowMs) stamps.delete(stamp);
      if (stamps.size >= limit.limit) {
        const oldest = Math.min(...stamps.values());
        // Every turn still in flight: one may free as soon as it is answered.
        return { waitMs: oldest > t ? IN_FLIGHT_RETRY_MS : Math.max(1, Math.ceil(oldest + limit.windowMs - t)) };
      }
      const stamp = `m${(seq += 1)}`;
      counts.set(route.key, stamps.set(stamp, t + IN_FLIGHT_MS));
      return { stamp };
    },
    async answered(route, stamp, answer) {
      const stamps = counts.get(route.key);
      if (stamp !== undefined && stamps?.has(stamp)) stamps.set(stamp, answer.at);
      if (answer.bucket !== undefined) learned.set(route.kind, learnLimit(limitOf(route.kind), answer.bucket));
      if (answer.holdUntil !== undefined) holds.set(route.key, Math.max(holds.get(route.key) ?? 0, answer.holdUntil));
    },
  };
}
