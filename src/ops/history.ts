/**
 * The page's memory: one sample of the registry a minute, the last 24 hours of them, in the
 * process. Bounded by count (a day and a minute of samples), and each sample keeps only the
 * series the page charts.
 */
import type { Sample } from "./series.js";

export const MINUTE_MS = 60_000;
/** A day of minutes, plus one so that a full day's difference has its start. */
const CAPACITY = 24 * 60 + 1;

export interface Point {
  at: number;
  values: Sample;
}

export interface History {
  add(point: Point): void;
  /** Points at or after `since`, oldest first. */
  since(since: number): Point[];
  /** The latest point at or before `at`; undefined when the history starts after it. */
  at(at: number): Point | undefined;
  size(): number;
}

export function createHistory(capacity = CAPACITY): History {
  const ring: Point[] = [];
  let start = 0;
  const ordered = (): Point[] => [...ring.slice(start), ...ring.slice(0, start)];
  return {
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
  };
}
