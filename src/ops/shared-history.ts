/**
 * The page's history kept in the database, so that any worker's page charts the whole bot.
 * Each worker writes a row a minute: what its counters rose by since its previous row (its
 * counters start at 0 with the process, so a restart loses nothing) and its gauges then. A
 * page sums every worker's rises into one set of counters per minute, as if one process had
 * counted everything since the record began, and adds what this worker counted since its last
 * row; the other workers' last minute is not in it yet. A day and a minute is kept.
 */
import { DAY_MS } from "../market/quota-ledger.js";
import { unlessUnreachable } from "../store/errors.js";
import type { OpsSample, OpsSampleStore } from "../store/types.js";
import { MINUTE_MS, type PageHistory, type Point, type Timeline } from "./history.js";
import { delta, isCounter, metricOf, type Sample } from "./series.js";

const KEEP_MS = DAY_MS + MINUTE_MS;
/** A worker whose last row is older than this is gone: its gauges (queues waiting) are not counted now. */
const GONE_MS = 2 * MINUTE_MS;
/**
 * Readings of the API key's one ledger: the same on every worker that shares it through
 * Redis, so the workers' highest is the key's, not their sum.
 */
const LEDGER_READINGS: ReadonlySet<string> = new Set(["chainpulse_market_units_spent_today", "chainpulse_market_daily_units"]);

export interface SharedHistoryOptions {
  store: OpsSampleStore;
  worker: string;
  /** When this process (and its counters) started. */
  startedAt: number;
}

type Entries = [string, number][];

function split(values: Sample): { counters: Map<string, number>; gauges: Map<string, number> } {
  const counters = new Map<string, number>();
  const gauges = new Map<string, number>();
  for (const [key, value] of values) (isCounter(key) ? counters : gauges).set(key, value);
  return { counters, gauges };
}

/** Several workers' gauges as one: the highest of a ledger's reading, the sum of the rest. */
function combineGauges(each: Iterable<ReadonlyMap<string, number>>): Map<string, number> {
  const out = new Map<string, number>();
  for (const gauges of each) {
    for (const [key, value] of gauges) {
      const known = out.get(key);
      if (known === undefined) out.set(key, value);
      else out.set(key, LEDGER_READINGS.has(metricOf(key)) ? Math.max(known, value) : known + value);
    }
  }
  return out;
}

function parseEntries(text: string): Map<string, number> {
  return new Map(JSON.parse(text) as Entries);
}

interface Row {
  worker: string;
  at: number;
  since: number;
  rises: Map<string, number>;
  gauges: Map<string, number>;
}

function toRow(s: OpsSample): Row {
  return { worker: s.worker, at: s.at, since: s.since, rises: parseEntries(s.counters), gauges: parseEntries(s.gauges) };
}

function timeline(rows: Row[], at: number, own: { worker: string; startedAt: number; last: Map<string, number> | undefined }): Timeline {
  const total = new Map<string, number>();
  const latest = new Map<string, Row>();
  const byMinute = new Map<number, Row[]>();
  for (const row of rows) {
    const minute = Math.floor(row.at / MINUTE_MS) * MINUTE_MS;
    byMinute.set(minute, [...(byMinute.get(minute) ?? []), row]);
  }
  const points: Point[] = [];
  for (const [minute, inMinute] of byMinute) {
    for (const row of inMinute) {
      for (const [key, rise] of row.rises) total.set(key, (total.get(key) ?? 0) + rise);
      latest.set(row.worker, row);
    }
    // A worker with two rows in one minute counts with its later one.
    const gauges = new Map(inMinute.map((r) => [r.worker, r.gauges]));
    points.push({ at: minute, values: new Map([...total, ...combineGauges(gauges.values())]) });
  }
  const oldest = rows.reduce((min, r) => Math.min(min, r.since), Infinity);
  const from = rows.length === 0 ? own.startedAt : Math.max(Math.min(oldest, own.startedAt), at - KEEP_MS);
  return {
    from,
    shared: true,
    since: (since) => points.filter((p) => p.at >= since),
    at: (t) => points.findLast((p) => p.at <= t),
    now(live) {
      const { counters, gauges } = split(live);
      const counted = new Map(total);
      // What this worker counted since its last row (everything, before its first).
      for (const [key, rise] of delta(counters, own.last ?? new Map())) counted.set(key, (counted.get(key) ?? 0) + rise);
      const others = [...latest.values()].filter((r) => r.worker !== own.worker && at - r.at <= GONE_MS).map((r) => r.gauges);
      return new Map([...counted, ...combineGauges([gauges, ...others])]);
    },
  };
}

export function createSharedHistory(opts: SharedHistoryOptions): PageHistory {
  /** The counters of this worker's last row written, and when: the next row's rises count from them. */
  let last: { at: number; counters: Map<string, number> } | undefined;
  /** The rows of the last read: the page of a worker cut off from the database draws them still. */
  let lastRows: Row[] = [];
  return {
    async record(point) {
      const { counters, gauges } = split(point.values);
      const rises = [...delta(counters, last?.counters ?? new Map())].filter(([, v]) => v > 0);
      await opts.store.addSample({
        worker: opts.worker,
        at: point.at,
        since: last?.at ?? opts.startedAt,
        counters: JSON.stringify(rises),
        gauges: JSON.stringify([...gauges]),
      });
      // Only a row written moves the mark: a minute the database missed is in the next row's rises.
      last = { at: point.at, counters };
      await opts.store.pruneSamples(point.at - KEEP_MS);
    },
    async read(at) {
      const read = await unlessUnreachable(opts.store.samplesSince(at - KEEP_MS));
      if (read !== undefined) lastRows = read.map(toRow);
      return timeline(lastRows, at, { worker: opts.worker, startedAt: opts.startedAt, last: last?.counters });
    },
  };
}
