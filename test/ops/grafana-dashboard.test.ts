/**
 * docs/grafana/chainpulse.json against what a running bot exports: every metric a panel asks
 * for is one the bot's /metrics declares (read from a real bot on the fake Bot API, not from a
 * list), and every metric the operator's page reads has a panel.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBot, type RunningBot } from "../../src/app/start-bot.js";
import { loadConfig } from "../../src/config.js";
import { pageMetric } from "../../src/ops/status-model.js";
import { startRedis, type RedisEngine } from "../engines/redis.js";
import { startFakeTelegram, type FakeTelegram } from "../fakes/telegram-api.js";
import { portLogger } from "./port-logger.js";

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(join(import.meta.dirname, "../../docs/grafana/chainpulse.json"), "utf8")) as { uid: string; panels: Panel[] };
const provisioned = readFileSync(join(import.meta.dirname, "../../docs/grafana/provisioning/datasources/prometheus.yml"), "utf8");
/** Series Prometheus itself adds to every scrape. */
const PROMETHEUS_OWN = new Set(["up"]);
/** PromQL words that look like metric names: functions, aggregations and keywords. */
const PROMQL = new Set(["sum", "max", "min", "count", "by", "rate", "increase", "histogram_quantile", "le"]);

let tg: FakeTelegram;
let redis: RedisEngine | undefined;
let bot: RunningBot;
let dir: string;
/** Metric names the bot declares, with a histogram's series names. */
let exported: Set<string>;

beforeAll(async () => {
  tg = await startFakeTelegram({ maxPollMs: 500 });
  dir = mkdtempSync(join(tmpdir(), "cp-grafana-"));
  // A bot with every optional series: the allowance's with MARKET_API_DAILY_UNITS, Redis's with REDIS_URL.
  redis = await startRedis();
  const config = loadConfig({
    TELEGRAM_BOT_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, HTTP_PORT: "0", DATABASE_PATH: join(dir, "bot.db"), MARKET_API_DAILY_UNITS: "5000", REDIS_URL: redis.url,
  });
  const logged = portLogger();
  bot = await startBot({ config, log: logged.log, stdin: Readable.from([]), stdout: new PassThrough() });
  const text = await (await fetch(`http://127.0.0.1:${logged.port()}/metrics`)).text();
  exported = new Set();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exported.add(name!);
    if (type === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) exported.add(`${name}${suffix}`);
  }
}, 60_000);

afterAll(async () => {
  await bot?.stop("test over");
  await tg?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Metric names in a PromQL expression: identifiers outside strings, label matchers and by(...) lists. */
function metricsIn(expr: string): string[] {
  const bare = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, "").replace(/\bby \([^)]*\)/g, "").replace(/\[[^\]]*\]/g, "");
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL.has(w));
}

describe("the Grafana dashboard", () => {
  const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

  it("asks only for metrics the running bot exports", () => {
    expect(exported.has("chainpulse_market_lane_units_total")).toBe(true);
    expect(queries.length).toBeGreaterThan(10);
    const unknown = queries.flatMap((q) => metricsIn(q.expr).filter((m) => !exported.has(m) && !PROMETHEUS_OWN.has(m)).map((m) => `${q.panel}: ${m}`));
    expect(unknown).toEqual([]);
  });

  it("charts every metric the operator's page reads", () => {
    const charted = new Set(queries.flatMap((q) => metricsIn(q.expr)));
    const page = [...exported].filter((m) => pageMetric(m.replace(/_(sum|count|bucket)$/, "")) && !m.endsWith("_bucket"));
    expect(page.length).toBeGreaterThan(5);
    const base = (m: string) => m.replace(/_(sum|count)$/, "");
    expect(page.filter((m) => ![...charted].some((c) => base(c) === base(m)))).toEqual([]);
  });

  it("reads the provisioned data source, with unique panel ids and panels inside the grid", () => {
    expect(provisioned).toContain("uid: chainpulse-prometheus");
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w).toBeLessThanOrEqual(24);
      if (p.type !== "row") expect(p.datasource?.uid).toBe("chainpulse-prometheus");
    }
  });
});
