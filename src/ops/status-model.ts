/**
 * What the operator's page shows, computed from the registry's samples (the history and the
 * moment of the request) and from the store: nothing is counted twice. Differences of two
 * samples give "in the last hour"; a counter's history before the process started is unknown,
 * so each figure says since when it counts.
 */
import { DAY_MS } from "../market/quota-ledger.js";
import { LANES } from "../market/scheduler-lanes.js";
import { unlessUnreachable } from "../store/errors.js";
import type { LeaseRow, OpsSampleStore } from "../store/types.js";
import type { Readiness } from "./http-server.js";
import type { DeliveryWatch, FailingChat } from "./delivery-watch.js";
import type { PageHistory, Point, Timeline } from "./history.js";
import { byLabel, delta, metricNames, seriesKey, type Sample } from "./series.js";

const HOUR_MS = 3_600_000;
/** A pace read over less than this is a start-up burst, not a pace: no run-out time is claimed from it. */
export const MIN_PACE_MS = 5 * 60_000;
export const FRESHNESS = ["fresh", "stale", "busy", "failed"] as const;
const DELIVERIES = /^chainpulse_(\w+)_deliveries_total$/;
/** The send protocol's counter of every scheduled message, by kind and recorded outcome. */
const SENDS = "chainpulse_sends_total";

/** The metrics the page reads; the history keeps these only. */
export function pageMetric(name: string): boolean {
  return (
    DELIVERIES.test(name) ||
    [
      SENDS,
      "chainpulse_market_lane_units_total",
      "chainpulse_market_units_spent_today",
      "chainpulse_market_daily_units",
      "chainpulse_answers_total",
      "chainpulse_market_queue_depth",
      "chainpulse_market_lane_wait_seconds",
    ].includes(name)
  );
}

export interface StatusSources {
  version: string;
  worker: string;
  startedAt: number;
  now: () => number;
  /** The market's configured pace. */
  rps: number;
  readiness: () => Promise<Readiness>;
  history: PageHistory;
  /** The registry now, as the history samples it. */
  sample: () => Promise<Sample>;
  /** Set once the bot is built: the store and the deliveries. */
  parts?: {
    leases: () => Promise<LeaseRow[]>;
    /** This process's name in the leases it holds: its rows are this worker's. */
    holder: string;
    /** Delivery rows by state per kind, from the store (every worker's). */
    rows: ReadonlyMap<string, () => Promise<Partial<Record<string, number>>>>;
    deliveries: DeliveryWatch;
    /** Every worker's samples, when the database is shared (PostgreSQL): the history is then theirs. */
    samples?: OpsSampleStore;
  };
}

export interface QuotaView {
  daily?: number;
  spent?: number;
  /** Units by lane since `countedSince`, counted by this worker (by every worker when `shared`). */
  byLane: { lane: string; units: number }[];
  countedSince: number;
  dayStart: number;
  /** Times of the chart's points and each lane's cumulative units there. */
  xs: number[];
  layers: { lane: string; values: number[] }[];
  /** Units an hour at the recent pace, and over how long it was measured. */
  pace?: { perHour: number; overMs: number };
  /** When the allowance runs out at that pace: a time today, or "lasts" past the reset. */
  runsOut?: { at: number } | { lasts: true };
}

export interface LaneView {
  lane: string;
  depth: number;
  calls: number;
  meanWaitMs?: number;
  units: number;
}

export interface DeliveryView {
  kind: string;
  sinceStart: Map<string, number>;
  lastHour: Map<string, number>;
  rows?: Partial<Record<string, number>>;
  last?: { at: number; outcome: string };
  failing: FailingChat[];
}

export interface StatusModel {
  version: string;
  worker: string;
  at: number;
  startedAt: number;
  /** Whether the figures are every worker's (the history shared through the database). */
  shared: boolean;
  /** When the counts began: this worker's start, or the start of the shared record. */
  countsFrom: number;
  rps: number;
  readiness: Readiness;
  quota: QuotaView;
  answers: { xs: number[]; layers: { freshness: string; values: number[] }[]; lastHour: Map<string, number>; since: number };
  lanes: LaneView[];
  lanesSince: number;
  deliveries: DeliveryView[];
  /** The store's leases, and the name this process holds its own under. */
  leases?: { rows: LeaseRow[]; holder: string };
  /** The database could not be read for this page: leases and stored counts are left out. */
  storeUnreachable?: true;
}

const EMPTY: Sample = new Map();

/**
 * The counters' values at `t`: nothing when the process started after it (its counters began at
 * 0), else the latest point at or before it, or the earliest point when sampling began later.
 */
function baseline(history: Timeline, t: number): Sample {
  if (history.from >= t) return EMPTY;
  return (history.at(t) ?? history.since(t)[0])?.values ?? EMPTY;
}

function single(sample: Sample, metric: string): number | undefined {
  return sample.get(seriesKey(metric));
}

function quotaView(history: Timeline, points: Point[], now: Sample, at: number): QuotaView {
  const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
  const base = byLabel(baseline(history, dayStart), "chainpulse_market_lane_units_total", "lane");
  const today = points.filter((p) => p.at >= dayStart);
  const xs = today.map((p) => p.at);
  const layers = LANES.map((lane) => ({
    lane,
    values: today.map((p) => Math.max(0, (byLabel(p.values, "chainpulse_market_lane_units_total", "lane").get(lane) ?? 0) - (base.get(lane) ?? 0))),
  }));
  const spent = single(now, "chainpulse_market_units_spent_today");
  const daily = single(now, "chainpulse_market_daily_units");
  const from = today.find((p) => p.at >= at - HOUR_MS && single(p.values, "chainpulse_market_units_spent_today") !== undefined);
  const view: QuotaView = {
    ...(daily === undefined ? {} : { daily }),
    ...(spent === undefined ? {} : { spent }),
    byLane: layers.map((l) => ({ lane: l.lane, units: l.values.at(-1) ?? 0 })),
    countedSince: Math.max(dayStart, history.from),
    dayStart,
    xs,
    layers,
  };
  if (from !== undefined && spent !== undefined && at - from.at >= MIN_PACE_MS) {
    const overMs = at - from.at;
    const perHour = ((spent - (single(from.values, "chainpulse_market_units_spent_today") ?? 0)) / overMs) * HOUR_MS;
    view.pace = { perHour, overMs };
    if (daily !== undefined) {
      const left = Math.max(0, daily - spent);
      const out = perHour > 0 ? at + (left / perHour) * HOUR_MS : Infinity;
      view.runsOut = out < dayStart + DAY_MS ? { at: out } : { lasts: true };
    }
  }
  return view;
}

function answersView(history: Timeline, points: Point[], at: number): StatusModel["answers"] {
  const since = at - HOUR_MS;
  const recent = points.filter((p) => p.at >= since);
  let previous = baseline(history, since);
  const xs: number[] = [];
  const perMinute: Map<string, number>[] = [];
  for (const p of recent) {
    perMinute.push(delta(byLabel(p.values, "chainpulse_answers_total", "freshness"), byLabel(previous, "chainpulse_answers_total", "freshness")));
    xs.push(p.at);
    previous = p.values;
  }
  const lastHour = new Map<string, number>();
  for (const m of perMinute) for (const [k, v] of m) lastHour.set(k, (lastHour.get(k) ?? 0) + v);
  return {
    xs,
    layers: FRESHNESS.map((freshness) => ({ freshness, values: perMinute.map((m) => m.get(freshness) ?? 0) })),
    lastHour,
    since: Math.max(since, history.from),
  };
}

function lanesView(then: Sample, now: Sample): LaneView[] {
  const depth = byLabel(now, "chainpulse_market_queue_depth", "lane");
  const diff = (metric: string) => delta(byLabel(now, metric, "lane"), byLabel(then, metric, "lane"));
  const calls = diff("chainpulse_market_lane_wait_seconds_count");
  const waited = diff("chainpulse_market_lane_wait_seconds_sum");
  const units = diff("chainpulse_market_lane_units_total");
  return LANES.map((lane) => {
    const n = calls.get(lane) ?? 0;
    return {
      lane,
      depth: depth.get(lane) ?? 0,
      calls: n,
      ...(n > 0 ? { meanWaitMs: ((waited.get(lane) ?? 0) / n) * 1000 } : {}),
      units: units.get(lane) ?? 0,
    };
  });
}

async function deliveriesView(src: StatusSources, then: Sample, now: Sample): Promise<DeliveryView[]> {
  const kinds = new Set<string>();
  for (const name of metricNames(now)) {
    const kind = DELIVERIES.exec(name)?.[1];
    if (kind !== undefined) kinds.add(kind);
  }
  for (const kind of src.parts?.rows.keys() ?? []) kinds.add(kind);
  // Kinds without a counter of their own (the buy feed, launches) are counted by the send protocol's.
  for (const kind of byLabel(now, SENDS, "kind").keys()) kinds.add(kind);
  const names = metricNames(now);
  const failing = src.parts?.deliveries.failing() ?? [];
  return Promise.all(
    [...kinds].sort().map(async (kind): Promise<DeliveryView> => {
      const own = `chainpulse_${kind}_deliveries_total`;
      const outcomes = (s: Sample): Map<string, number> => (names.has(own) ? byLabel(s, own, "outcome") : byLabel(s, SENDS, "outcome", { kind }));
      const sinceStart = outcomes(now);
      const rows = await unlessUnreachable(src.parts?.rows.get(kind)?.());
      const last = src.parts?.deliveries.last(kind);
      return {
        kind,
        sinceStart,
        lastHour: delta(sinceStart, outcomes(then)),
        ...(rows === undefined ? {} : { rows }),
        ...(last === undefined ? {} : { last }),
        failing: failing.filter((c) => c.kind === kind),
      };
    }),
  );
}

export async function statusModel(src: StatusSources): Promise<StatusModel> {
  const at = src.now();
  // The page is most wanted while the store cannot be reached: its store reads fall back, never fail it.
  const [readiness, live, leases, history] = await Promise.all([src.readiness(), src.sample(), unlessUnreachable(src.parts?.leases()), src.history.read(at)]);
  const now = history.now(live);
  const points = [...history.since(at - DAY_MS), { at, values: now }];
  const hourAgo = baseline(history, at - HOUR_MS);
  return {
    version: src.version,
    worker: src.worker,
    at,
    startedAt: src.startedAt,
    shared: history.shared,
    countsFrom: history.from,
    rps: src.rps,
    readiness,
    quota: quotaView(history, points, now, at),
    answers: answersView(history, points, at),
    lanes: lanesView(hourAgo, now),
    lanesSince: Math.max(at - HOUR_MS, history.from),
    deliveries: await deliveriesView(src, hourAgo, now),
    ...(leases === undefined || src.parts === undefined ? {} : { leases: { rows: leases, holder: src.parts.holder } }),
    ...(src.parts !== undefined && leases === undefined ? { storeUnreachable: true as const } : {}),
  };
}

