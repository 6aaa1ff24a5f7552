/**
 * The process's Prometheus metrics. One registry per process (not prom-client's global one)
 * so that tests can build several apps in one process without "already registered" errors.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { packageVersion } from "./version.js";

export interface Metrics {
  registry: Registry;
  /** Commands by name and outcome: ok, user_error, error, throttled. */
  commands: Counter<"command" | "outcome">;
  commandSeconds: Histogram<"command">;
  /** Upstream calls by endpoint and outcome: ok or a MarketError kind. */
  upstreamCalls: Counter<"endpoint" | "outcome">;
  /** Cache lookups by method and outcome: hit, miss, stale. */
  cache: Counter<"method" | "outcome">;
  /** Digest deliveries by platform and outcome: delivered, gone, moved, retry, forbidden, failed, expired. */
  digestDeliveries: Counter<"platform" | "outcome">;
  /** Time a message waited for the platform's pace, by kind: a reply, or a scheduled message (digest, alert, ...). */
  pacingWaitSeconds: Histogram<"platform" | "kind">;
  /** Scheduled messages by kind, platform and recorded outcome: delivered, resent, forbidden (refused), gone, moved, failed, expired. */
  sends: Counter<"kind" | "platform" | "outcome">;
  /** Alert messages by platform and final state: delivered, gone, moved, forbidden, failed, expired. */
  alertDeliveries: Counter<"platform" | "outcome">;
  /** Time from the check that saw a crossing to the platform's answer. */
  alertDeliverySeconds: Histogram<"platform">;
  /** 429 answers received from a platform. */
  platform429: Counter<"platform">;
  /** 1 while the shared Redis answers, 0 while the process runs on its in-process fallbacks. */
  redisUp: { set(value: number): void };
  /** Times Redis was lost (or unreachable at start) and the process fell back to in-process state. */
  redisOutages: { inc(): void };
}

/** `worker`: WORKER_ID, a label on every series so that several workers' metrics add up and tell apart. */
export function createMetrics(options: { processMetrics?: boolean; worker?: string } = {}): Metrics {
  const registry = new Registry();
  if (options.worker !== undefined) registry.setDefaultLabels({ worker: options.worker });
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: "chainpulse_" });
  const registers = [registry];
  // A constant 1 whose label says which release runs, for the dashboard's version panel.
  new Gauge({ name: "chainpulse_build_info", help: "1, labelled with the running version", labelNames: ["version"], registers }).set({ version: packageVersion() }, 1);
  // Served from Redis's first report of its state, which only a process with REDIS_URL makes
  // (its connection reports at start, up or lost): without it a series never set would read 0,
  // "Redis down".
  const redisUp = new Gauge({
    name: "chainpulse_redis_up",
    help: "1 while the shared Redis answers, 0 while in-process fallbacks stand in (only with REDIS_URL)",
    registers: [],
  });
  const redisOutages = new Counter({
    name: "chainpulse_redis_outages_total",
    help: "Times Redis was lost and the process carried on with in-process state (only with REDIS_URL)",
    registers: [],
  });
  let redisServed = false;
  const served = (): void => {
    if (redisServed) return;
    redisServed = true;
    registry.registerMetric(redisUp);
    registry.registerMetric(redisOutages);
  };
  return {
    registry,
    commands: new Counter({
      name: "chainpulse_commands_total",
      help: "Commands handled, by command and outcome",
      labelNames: ["command", "outcome"],
      registers,
    }),
    commandSeconds: new Histogram({
      name: "chainpulse_command_duration_seconds",
      help: "Time from a command's arrival to its reply being ready",
      labelNames: ["command"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    upstreamCalls: new Counter({
      name: "chainpulse_upstream_calls_total",
      help: "Calls to the market data service, by endpoint and outcome",
      labelNames: ["endpoint", "outcome"],
      registers,
    }),
    cache: new Counter({
      name: "chainpulse_cache_lookups_total",
      help: "Market lookups through the cache, by method and outcome (hit, miss, stale)",
      labelNames: ["method", "outcome"],
      registers,
    }),
    digestDeliveries: new Counter({
      name: "chainpulse_digest_deliveries_total",
      help: "Digest deliveries, by platform and outcome",
      labelNames: ["platform", "outcome"],
      registers,
    }),
    pacingWaitSeconds: new Histogram({
      name: "chainpulse_pacing_wait_seconds",
      help: "Time a message waited for the platform's pace, by kind: reply, scheduled, or rest (a Discord request's route and rate)",
      labelNames: ["platform", "kind"],
      buckets: [0, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    }),
    sends: new Counter({
      name: "chainpulse_sends_total",
      help: "Scheduled messages (digests, alerts, ...) by kind, platform and recorded outcome",
      labelNames: ["kind", "platform", "outcome"],
      registers,
    }),
    alertDeliveries: new Counter({
      name: "chainpulse_alert_deliveries_total",
      help: "Alert messages, by platform and final state",
      labelNames: ["platform", "outcome"],
      registers,
    }),
    alertDeliverySeconds: new Histogram({
      name: "chainpulse_alert_delivery_seconds",
      help: "Time from the check that saw an alert's crossing to the platform's answer",
      labelNames: ["platform"],
      buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60, 300, 3600],
      registers,
    }),
    platform429: new Counter({
      name: "chainpulse_platform_429_total",
      help: "Too Many Requests answers from a platform",
      labelNames: ["platform"],
      registers,
    }),
    redisUp: {
      set(value: number) {
        served();
        redisUp.set(value);
      },
    },
    redisOutages: {
      inc() {
        served();
        redisOutages.inc();
      },
    },
  };
}
