import { describe, expect, it } from "vitest";
import { createDeliveryWatch } from "../../src/ops/delivery-watch.js";
import { createHistory } from "../../src/ops/history.js";
import { seriesKey } from "../../src/ops/series.js";
import { createSharedHistory } from "../../src/ops/shared-history.js";
import { statusModel, type StatusSources } from "../../src/ops/status-model.js";
import { statusPage } from "../../src/ops/status-page.js";
import { StoreError } from "../../src/store/errors.js";
import type { OpsSampleStore } from "../../src/store/types.js";

const DAY_START = Date.UTC(2026, 10, 27);
const H = 3_600_000;

/** A sample as the registry gives it: the day's spend, the allowance, units per lane, alert deliveries. */
function sample(o: { spent: number; daily?: number; people: number; alerts: number; delivered?: number; forbidden?: number }): Map<string, number> {
  const m = new Map<string, number>([
    [seriesKey("chainpulse_market_units_spent_today"), o.spent],
    [seriesKey("chainpulse_market_lane_units_total", { lane: "people", worker: "w1" }), o.people],
    [seriesKey("chainpulse_market_lane_units_total", { lane: "alerts", worker: "w1" }), o.alerts],
    [seriesKey("chainpulse_alert_deliveries_total", { platform: "telegram", outcome: "delivered" }), o.delivered ?? 0],
    [seriesKey("chainpulse_alert_deliveries_total", { platform: "telegram", outcome: "forbidden" }), o.forbidden ?? 0],
  ]);
  if (o.daily !== undefined) m.set(seriesKey("chainpulse_market_daily_units"), o.daily);
  return m;
}

function sources(at: number, startedAt: number, now: Map<string, number>, points: [number, Map<string, number>][]): StatusSources {
  const history = createHistory(startedAt);
  for (const [t, values] of points) history.add({ at: t, values });
  return {
    version: "1.2.3",
    worker: "w1",
    startedAt,
    now: () => at,
    rps: 5,
    readiness: async () => ({ ready: true, checks: {} }),
    history,
    sample: async () => now,
    parts: { leases: async () => [], holder: "here:1:w1:abc", rows: new Map(), deliveries: createDeliveryWatch(() => at) },
  };
}

describe("the operator's page model", () => {
  it("says when the allowance runs out at the last hour's pace, and that it lasts when it does", async () => {
    const at = DAY_START + 11 * H;
    const points: [number, Map<string, number>][] = [
      [DAY_START + 9 * H, sample({ spent: 2_000, daily: 100_000, people: 1_500, alerts: 500 })],
      [DAY_START + 10 * H, sample({ spent: 5_000, daily: 100_000, people: 3_000, alerts: 2_000 })],
    ];
    const m = await statusModel(sources(at, DAY_START + 8 * H, sample({ spent: 15_000, daily: 100_000, people: 10_000, alerts: 5_000 }), points));
    expect(m.quota.pace).toEqual({ perHour: 10_000, overMs: H });
    // 85,000 left at 10,000 an hour: 8.5 h after 11:00.
    expect(m.quota.runsOut).toEqual({ at: at + 8.5 * H });
    expect(m.quota.byLane.filter((l) => l.units > 0)).toEqual([{ lane: "people", units: 10_000 }, { lane: "alerts", units: 5_000 }]);
    expect(m.quota.countedSince).toBe(DAY_START + 8 * H);

    const roomy = await statusModel(sources(at, DAY_START + 8 * H, sample({ spent: 15_000, daily: 1_000_000, people: 10_000, alerts: 5_000 }), points.map(([t, s]) => [t, new Map([...s, [seriesKey("chainpulse_market_daily_units"), 1_000_000]])])));
    expect(roomy.quota.runsOut).toEqual({ lasts: true });
  });

  it("claims no pace from a start-up burst, and no run-out without an allowance", async () => {
    const at = DAY_START + 10 * H;
    const burst = await statusModel(sources(at, at - 60_000, sample({ spent: 900, daily: 10_000, people: 900, alerts: 0 }), [[at - 60_000, sample({ spent: 0, daily: 10_000, people: 0, alerts: 0 })]]));
    expect(burst.quota.pace).toBeUndefined();
    expect(burst.quota.runsOut).toBeUndefined();
    const unpaced = await statusModel(sources(at, at - H, sample({ spent: 900, people: 900, alerts: 0 }), [[at - H, sample({ spent: 0, people: 0, alerts: 0 })]]));
    expect(unpaced.quota.pace?.perHour).toBe(900);
    expect(unpaced.quota.runsOut).toBeUndefined();
  });

  it("counts the day's units from midnight when the process ran through it, and the last hour's deliveries from an hour ago", async () => {
    const at = DAY_START + 30 * 60_000;
    const m = await statusModel(
      sources(at, DAY_START - 5 * H, sample({ spent: 700, people: 4_000, alerts: 1_200, delivered: 9, forbidden: 3 }), [
        [DAY_START - 60_000, sample({ spent: 50_000, people: 3_500, alerts: 1_000, delivered: 5, forbidden: 1 })],
        [DAY_START + 60_000, sample({ spent: 100, people: 3_600, alerts: 1_000, delivered: 6, forbidden: 3 })],
      ]),
    );
    expect(m.quota.byLane.filter((l) => l.units > 0)).toEqual([{ lane: "people", units: 500 }, { lane: "alerts", units: 200 }]);
    expect(m.quota.xs).toEqual([DAY_START + 60_000, at]);
    const alerts = m.deliveries.find((d) => d.kind === "alert");
    expect(Object.fromEntries(alerts?.sinceStart ?? [])).toEqual({ delivered: 9, forbidden: 3 });
    expect(Object.fromEntries(alerts?.lastHour ?? [])).toEqual({ delivered: 4, forbidden: 2 });
  });

  it("shows the buy feed and launches from the send protocol's counter, each kind apart", async () => {
    const at = DAY_START + 2 * H;
    const sends = (buy: number, launch: number, alert: number): Map<string, number> =>
      new Map([
        ...sample({ spent: 10, people: 1, alerts: 1, delivered: 1 }),
        [seriesKey("chainpulse_sends_total", { kind: "buy", platform: "telegram", outcome: "delivered" }), buy],
        [seriesKey("chainpulse_sends_total", { kind: "buy", platform: "discord", outcome: "resent" }), 1],
        [seriesKey("chainpulse_sends_total", { kind: "launch", platform: "telegram", outcome: "delivered" }), launch],
        [seriesKey("chainpulse_sends_total", { kind: "alert", platform: "telegram", outcome: "delivered" }), alert],
      ]);
    const m = await statusModel(sources(at, DAY_START, sends(30, 4, 50), [[at - H, sends(10, 1, 40)]]));
    const view = (kind: string) => m.deliveries.find((d) => d.kind === kind);
    expect(Object.fromEntries(view("buy")?.sinceStart ?? [])).toEqual({ delivered: 30, resent: 1 });
    expect(Object.fromEntries(view("buy")?.lastHour ?? [])).toEqual({ delivered: 20, resent: 0 });
    expect(Object.fromEntries(view("launch")?.sinceStart ?? [])).toEqual({ delivered: 4 });
    // A kind with a counter of its own keeps it: alerts are not counted twice.
    expect(Object.fromEntries(view("alert")?.sinceStart ?? [])).toEqual({ delivered: 1, forbidden: 0 });
  });

  it("keeps a day of minutes and no more", () => {
    const history = createHistory();
    for (let i = 0; i < 3_000; i++) history.add({ at: i * 60_000, values: new Map() });
    expect(history.size()).toBe(24 * 60 + 1);
    expect(history.since(0)[0]?.at).toBe((3_000 - 24 * 60 - 1) * 60_000);
    expect(history.at(2_999.5 * 60_000)?.at).toBe(2_999 * 60_000);
  });

  it("lists a chat while its deliveries fail, with the platform's reason, until one succeeds", async () => {
    const watch = createDeliveryWatch(() => 1_000);
    let answer: { kind: "forbidden"; reason: string } | { kind: "delivered" } = { kind: "forbidden", reason: "Forbidden: not enough rights" };
    const queue = { push: async (_job: unknown) => answer, stop: async () => undefined, pending: () => 0, inFlight: () => 0 };
    const { telegram } = watch.watch("alert", { telegram: queue });
    const job = { chatId: "-100", deadline: 0, send: async () => answer };
    await telegram?.push(job);
    await telegram?.push(job);
    expect(watch.failing()).toEqual([{ kind: "alert", platform: "telegram", chatId: "-100", outcome: "forbidden", reason: "Forbidden: not enough rights", count: 2, lastAt: 1_000 }]);
    answer = { kind: "delivered" };
    await telegram?.push(job);
    expect(watch.failing()).toEqual([]);
    expect(watch.last("alert")).toEqual({ at: 1_000, outcome: "delivered" });
  });

  it("takes a post another worker sends (unclaimed here) for no platform answer and no failure", async () => {
    const watch = createDeliveryWatch(() => 1_000);
    const queue = { push: async (_job: unknown) => ({ kind: "unclaimed" as const, why: "taken" as const }), stop: async () => undefined, pending: () => 0, inFlight: () => 0 };
    const { telegram } = watch.watch("alert", { telegram: queue });
    await telegram?.push({ chatId: "-100", deadline: 0, send: async () => ({ kind: "delivered" }) });
    expect(watch.failing()).toEqual([]);
    expect(watch.last("alert")).toBeUndefined();
  });
});

describe("the operator's page drawing", () => {
  it("gives every market lane a colour of its own in the units' legend", async () => {
    const at = DAY_START + 11 * H;
    const now = sample({ spent: 3_000, people: 1_000, alerts: 1_000 });
    for (const lane of ["feed", "digest", "refresh"]) now.set(seriesKey("chainpulse_market_lane_units_total", { lane, worker: "w1" }), 300);
    const html = statusPage(await statusModel(sources(at, DAY_START, now, [])));
    const colours = [...html.matchAll(/<span class="swatch" style="background:(#[0-9a-f]{6})"><\/span>(people|alerts|feed|digest|refresh)</g)].map((m) => [m[2], m[1]]);
    expect(colours.map(([lane]) => lane).sort()).toEqual(["alerts", "digest", "feed", "people", "refresh"]);
    expect(new Set(colours.map(([, c]) => c)).size).toBe(5);
    // #334155 is the colour of a lane without its own, nearly the allowance line's #0f172a.
    expect(colours.filter(([, c]) => c === "#334155")).toEqual([]);
  });
});

describe("the operator's page while the database cannot be reached", () => {
  it("is drawn from what the worker has, says the database is away, and keeps the shared minutes it last read", async () => {
    const at = DAY_START + 11 * H;
    const away = () => Promise.reject(new StoreError("unavailable", "the database cannot be reached"));
    let reachable = true;
    const samples: OpsSampleStore = {
      addSample: async () => undefined,
      pruneSamples: async () => 0,
      samplesSince: async () => (reachable ? [{ worker: "w2", at: at - 5 * 60_000, since: at - 6 * 60_000, counters: JSON.stringify([[seriesKey("chainpulse_market_units_spent_today"), 40]]), gauges: "[]" }] : away()),
    };
    const history = createSharedHistory({ store: samples, worker: "w1", startedAt: DAY_START });
    const src: StatusSources = {
      ...sources(at, DAY_START, sample({ spent: 15_000, people: 10_000, alerts: 5_000 }), []),
      history,
      parts: { leases: away, holder: "here:1:w1:abc", rows: new Map([["alert", away]]), deliveries: createDeliveryWatch(() => at) },
    };
    const before = (await history.read(at)).since(0).length;
    reachable = false;
    const m = await statusModel(src);
    expect(m.storeUnreachable).toBe(true);
    expect(m.leases).toBeUndefined();
    expect(m.deliveries.find((d) => d.kind === "alert")?.rows).toBeUndefined();
    expect((await history.read(at)).since(0).length).toBe(before);
    expect(statusPage(m)).toContain("The database cannot be reached");
  });
});
