/** The operator's page samples in SQLite. Plain SQL, so PostgreSQL runs the same statements. */
import type Database from "better-sqlite3";
import type { OpsSample, OpsSampleStore } from "../types.js";

export function sqliteOpsSamples(db: Database.Database): OpsSampleStore {
  const add = db.prepare(`
    INSERT INTO ops_samples (worker, at, since, counters, gauges) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (worker, at) DO UPDATE SET since = excluded.since, counters = excluded.counters, gauges = excluded.gauges`);
  const since = db.prepare("SELECT worker, at, since, counters, gauges FROM ops_samples WHERE at >= ? ORDER BY at, worker");
  const prune = db.prepare("DELETE FROM ops_samples WHERE at < ?");
  return {
    async addSample(s) {
      add.run(s.worker, s.at, s.since, s.counters, s.gauges);
    },
    async samplesSince(t) {
      return since.all(t) as OpsSample[];
    },
    async pruneSamples(before) {
      return prune.run(before).changes;
    },
  };
}
