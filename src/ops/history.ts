/**
 * The page's memory: one sample of the registry a minute, the last 24 hours of them. In the
 * process (this file) it is bounded by count (a day and a minute of samples), and each sample
 * keeps only the series the page charts; `shared-history.ts` keeps every worker's in the
 * database instead.
 */
import type { Sample } from "./series.js";

export const MINUTE_MS = 60_000;
/** A day of minutes, plus one so that a full day's difference has its start. */
const CAPACITY = 24 * 60 + 1;

export interface Point {
  at: number;
  values: Sample;
}

/** The history as one request of the page reads it. */
export interface Timeline {
  /** When its counters began at 0: the process's start, or the start of the shared record. */
  from: number;
  /** Whether it holds every worker's counts (the shared record) or this process's. */
  shared: boolean;
  /** Points at or after `since`, oldest first. */
  since(since: number): Point[];
  /** The latest point at or before `at`; undefined when the history starts after it. */
  at(at: number): Point | undefined;
  /** This process's registry now (`live`) as the timeline counts: with the other workers' when shared. */
  now(live: Sample): Sample;
}

export interface PageHistory {
  /** Records this process's registry at `point.at`. */
  record(point: Point): Promise<void>;
  /** The timeline to draw at `at`. */
  read(at: number): Promise<Timeline>;
}

export interface MemoryHistory extends PageHistory {
  add(point: Point): void;
  since(since: number): Point[];
  at(at: number): Point | undefined;
  size(): number;
}

/** The history of this process alone, which started at `startedAt`. */
export function createHistory(startedAt = 0, capacity = CAPACITY): MemoryHistory {
  const ring: Point[] = [];
  let start = 0;
  const ordered = (): Point[] => [...ring.slice(start), ...ring.slice(0, start)];
  const history: MemoryHistory = {
    add(point) {
      if (ring.length < capacity) ring.push(point);
      else {
        ring[start] = point;
        start = (start + 1) % capacity;
      }
    },
    since: (since) => ordered().filter((p) => p.at >= since),
    at: (at) => ordered().findLast((p) => p.at <= at),
    size: () => ring.length,
    record: async (point) => history.add(point),
    read: async () => ({ from: startedAt, shared: false, since: history.since, at: history.at, now: (live) => live }),
  };
  return history;
}
