/**
 * The registry's numbers as the operator's page reads them: one flat map per moment, keyed by
 * metric and labels, so that two moments subtract into "in the last hour". The `worker` label
 * is left out (one process's registry has one worker), and so are histogram buckets: the page
 * reads waits as sum over count.
 */
import type { Registry } from "prom-client";

/** One moment's values by series key (`seriesKey`). */
export type Sample = ReadonlyMap<string, number>;

const SEP = "\u0000";

/** Keys repeat every minute for a day: one string each, shared by every sample. */
const interned = new Map<string, string>();

export function seriesKey(name: string, labels: Readonly<Record<string, string | number>> = {}): string {
  const parts = Object.keys(labels)
    .filter((l) => l !== "worker" && l !== "le")
    .sort()
    .map((l) => `${l}=${String(labels[l])}`);
  const key = [name, ...parts].join(SEP);
  const known = interned.get(key);
  if (known !== undefined) return known;
  interned.set(key, key);
  return key;
}

/** The series of `registry` whose metric name passes `keep`. */
export async function readSeries(registry: Registry, keep: (metric: string) => boolean): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const metric of await registry.getMetricsAsJSON()) {
    if (!keep(metric.name)) continue;
    for (const v of metric.values) {
      const name = (v as { metricName?: string }).metricName ?? metric.name;
      if (name.endsWith("_bucket")) continue;
      const key = seriesKey(name, v.labels as Record<string, string | number>);
      out.set(key, (out.get(key) ?? 0) + v.value);
    }
  }
  return out;
}

function parse(key: string): { name: string; labels: Map<string, string> } {
  const [name = "", ...parts] = key.split(SEP);
  return { name, labels: new Map(parts.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)])) };
}

/** The values of `metric` summed per value of `label`, of the series whose labels hold `where`. */
export function byLabel(sample: Sample, metric: string, label: string, where: Readonly<Record<string, string>> = {}): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of sample) {
    const { name, labels } = parse(key);
    const at = labels.get(label);
    if (name !== metric || at === undefined) continue;
    if (Object.entries(where).some(([l, v]) => labels.get(l) !== v)) continue;
    out.set(at, (out.get(at) ?? 0) + value);
  }
  return out;
}

/** The metric of a series key. */
export function metricOf(key: string): string {
  return parse(key).name;
}

/**
 * Whether a series only rises while its process runs (a counter, a histogram's sum or count),
 * so that workers' rises add up; the others are gauges, a reading at one moment.
 */
export function isCounter(key: string): boolean {
  return /_(total|sum|count)$/.test(metricOf(key));
}

/** Every metric name present in `sample`. */
export function metricNames(sample: Sample): Set<string> {
  return new Set([...sample.keys()].map((k) => parse(k).name));
}

/** `now − then` per label value; a value missing at `then` counts from 0 (its series began since). */
export function delta(now: ReadonlyMap<string, number>, then: ReadonlyMap<string, number>): Map<string, number> {
  return new Map([...now].map(([k, v]) => [k, Math.max(0, v - (then.get(k) ?? 0))]));
}
