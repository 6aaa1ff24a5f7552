import { describe, expect, it } from "vitest";
import { feedRule, fewestPolls, rateRule, replay, type Stream } from "../../bench/buys-replay.js";

const plan = { pollSeconds: 15, maxPollSeconds: 300 };
/** A swap every `every` seconds in [0, hours), each a buy owed to `chats` chats. */
const steady = (every: number, chats: number, hours = 2): Stream => {
  const trades = Array.from({ length: (hours * 3600) / every }, (_, i) => (i + 1) * every);
  return { trades, owed: trades.map((at) => ({ at, chats })) };
};

describe("the buy feed's interval replay", () => {
  it("counts a call a poll and a page for each 300 swaps past the first, after the warm-up only", () => {
    const every15 = replay([steady(1, 1)], () => 15, 0, 3600, 7200);
    expect(every15.callsPerHour).toBe(240);
    const every600 = replay([steady(1, 1)], () => 600, 0, 3600, 7200);
    expect(every600.callsPerHour).toBe(12);
  });

  it("weighs the delay by the chats a buy is owed to, and gives each pair's own p95", () => {
    // After the warm-up, the pair owed to 99 chats is polled every 15 s, the two owed to 1 every 300 s.
    const r = replay([steady(1, 99), steady(1, 1), steady(1, 1)], (s) => (s.owed > 10_000 ? 15 : 300), 0, 3600, 7200);
    expect(r.callsPerHour).toBe(240 + 2 * 12);
    expect(r.p95).toBeLessThan(15);
    expect(r.p50).toBeLessThan(8);
    const alone = replay([steady(1, 1)], () => 300, 0, 3600, 7200);
    expect(alone.p95).toBeGreaterThan(250);
    expect(r.pairP95Median).toBe(alone.p95);
  });

  it("replays the feed's rule: every 15 s while a pair trades, backing off while it is quiet", () => {
    expect(replay([steady(5, 1)], feedRule(plan), 0, 3600, 7200).callsPerHour).toBe(240);
    const quiet = replay([{ trades: [10], owed: [{ at: 10, chats: 1 }] }], feedRule(plan), 0, 3600, 7200);
    expect(quiet.callsPerHour).toBe(12);
  });

  it("replays a rate rule: a pair owing a buy a minute is polled about once a minute at k = 1, more often with more chats", () => {
    const one = replay([steady(60, 1)], rateRule(plan, 1), 0, 3600, 7200).callsPerHour;
    expect(one).toBeGreaterThan(50);
    expect(one).toBeLessThan(75);
    expect(replay([steady(60, 8)], rateRule(plan, 1), 0, 3600, 7200).callsPerHour).toBe(240);
  });

  it("counts the fewest polls that read every owed buy within the interval, knowing when each trades", () => {
    // The 361 buys from 3600 to 7200, 10 s apart: one poll reads two of them (t and t + 10) within 15 s.
    expect(fewestPolls([steady(10, 1)], 15, 3600, 7200)).toBe(181);
    // The 3601 buys a second apart: one poll reads sixteen (t to t + 15).
    expect(fewestPolls([steady(1, 1)], 15, 3600, 7200)).toBe(226);
    // A swap owed to no chat needs no poll.
    expect(fewestPolls([{ trades: [4000, 5000], owed: [] }], 15, 3600, 7200)).toBe(0);
  });
});
