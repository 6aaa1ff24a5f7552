/** The operator's page samples in PostgreSQL: the statements of sqlite/ops-samples.ts with numbered parameters. */
import type { SqlRunner } from "./sql.js";
import type { OpsSample, OpsSampleStore } from "../types.js";

export function postgresOpsSamples(sql: SqlRunner): OpsSampleStore {
  return {
    async addSample(s) {
      await sql.write(
        `INSERT INTO ops_samples (worker, at, since, counters, gauges) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (worker, at) DO UPDATE SET since = excluded.since, counters = excluded.counters, gauges = excluded.gauges`,
        [s.worker, s.at, s.since, s.counters, s.gauges],
      );
    },
    async samplesSince(t) {
      return sql.read<OpsSample>("SELECT worker, at, since, counters, gauges FROM ops_samples WHERE at >= $1 ORDER BY at, worker", [t]);
    },
    async pruneSamples(before) {
      return (await sql.write("DELETE FROM ops_samples WHERE at < $1", [before])).count;
    },
  };
}
