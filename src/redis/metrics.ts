import type { Metrics } from "../ops/metrics.js";

/** The `onChange` of `connectRedis` that keeps /metrics true: the up gauge, and each loss counted. */
export function countRedisChanges(metrics: Pick<Metrics, "redisUp" | "redisOutages">): (up: boolean) => void {
  return (up) => {
    metrics.redisUp.set(up ? 1 : 0);
    if (!up) metrics.redisOutages.inc();
  };
}
