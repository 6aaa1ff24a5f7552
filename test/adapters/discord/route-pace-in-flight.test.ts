/**
 * A turn on a route counts until its request is answered, not from when it was taken: a post
 * whose turn was reserved before its claim, or held up on a loaded machine, reaches Discord
 * later than its turn, and a window counted from the turn let other workers post into Discord's
 * window with it (a 429 seen on a busy CI machine).
 */
import { describe, expect, it } from "vitest";
import { CHANNEL_MESSAGES, IN_FLIGHT_MS, memoryRoutePace, routeOf, type RoutePace } from "../../../src/adapters/discord/route-pace.js";
import { redisRoutePace } from "../../../src/redis/route-pace.js";
import { useRedis } from "../../engines/redis.js";

const { link } = useRedis();
let scopes = 0;

const engines: [string, () => Promise<RoutePace>][] = [
  ["in process", async () => memoryRoutePace()],
  ["in Redis", async () => redisRoutePace({ redis: await link(), scope: `discord-rest:flight${(scopes += 1)}` })],
];

describe.each(engines)("a route's books %s", (_, make) => {
  const route = routeOf("POST", "/channels/500000000000000071/messages");

  it("keep a turn not yet answered in the window however old it is, and count it from its answer", async () => {
    const pace = await make();
    const t0 = 1_000_000;
    const stamps: (string | undefined)[] = [];
    for (let i = 0; i < CHANNEL_MESSAGES.limit; i++) {
      const slot = await pace.take(route, t0 + i);
      if (!("stamp" in slot)) throw new Error("no turn");
      stamps.push(slot.stamp);
    }
    // A window later every request may still be on its way: no turn, and another look soon.
    const late = t0 + CHANNEL_MESSAGES.windowMs + 100;
    const waiting = await pace.take(route, late);
    expect("waitMs" in waiting && waiting.waitMs < 100).toBe(true);
    // Answered now: they count from now, a whole window more.
    for (const stamp of stamps) await pace.answered(route, stamp, { at: late });
    const after = await pace.take(route, late + 1);
    expect(after).toEqual({ waitMs: CHANNEL_MESSAGES.windowMs - 1 });
    expect("stamp" in (await pace.take(route, late + CHANNEL_MESSAGES.windowMs))).toBe(true);
  });

  it("give up waiting for an answer that never comes after the in-flight bound and a window", async () => {
    const pace = await make();
    const t0 = 2_000_000;
    for (let i = 0; i < CHANNEL_MESSAGES.limit; i++) await pace.take(route, t0);
    expect("waitMs" in (await pace.take(route, t0 + IN_FLIGHT_MS))).toBe(true);
    expect("stamp" in (await pace.take(route, t0 + IN_FLIGHT_MS + CHANNEL_MESSAGES.windowMs))).toBe(true);
  });
});
