import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import pino from "pino";
import { Writable } from "node:stream";
import { createBudget } from "../../src/core/budget.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { connectRedis } from "../../src/redis/connection.js";
import { countRedisChanges } from "../../src/redis/metrics.js";
import { deferred, type Deferred } from "../deferred.js";
import { startRedis, useRedis } from "../engines/redis.js";

function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n")) if (line.trim() !== "") lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { log: pino({ level: "debug" }, sink), lines };
}

async function metricValue(metrics: ReturnType<typeof createMetrics>, name: string): Promise<number | undefined> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  return metric?.values[0]?.value;
}

describe("Redis lost mid-run", () => {
  const redis = useRedis();
  // Built with its reply mapping named, as in bench/workers.ts: inferred, it costs every type check two seconds.
  let observer: Redis;
  beforeAll(() => {
    observer = new Redis<"legacy">(redis.engine().url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  });
  afterAll(() => {
    observer.disconnect();
  });

  it("carries on in process, logs once, counts it in /metrics, and counts on Redis again once it is back", async () => {
    const { log, lines } = capturingLogger();
    const metrics = createMetrics({ processMetrics: false });
    const changes: boolean[] = [];
    let changed: Deferred<void> | undefined;
    const count = countRedisChanges(metrics);
    const link = await redis.link({
      log,
      onChange: (up) => {
        count(up);
        changes.push(up);
        changed?.resolve();
      },
    });
    const nextChange = () => (changed = deferred()).promise;
    const budget = createBudget({ perUser: 3, redis: link });
    const t = 1_800_000_000_000;
    const countedOnRedis = async (user: string) => {
      await observer.connect().catch(() => undefined);
      return (await observer.keys("chainpulse:budget:user*")).some((k) => k.includes(user));
    };

    expect((await budget.take("before", "c", t)).kind).toBe("ok");
    expect(await countedOnRedis("before")).toBe(true);
    expect(await metricValue(metrics, "chainpulse_redis_up")).toBe(1);
    observer.disconnect();

    const lost = nextChange();
    await redis.engine().stop();
    await lost;
    const during = [];
    for (let i = 0; i < 5; i++) during.push((await budget.take("during", "c", t + i)).kind);
    expect(during).toEqual(["ok", "ok", "ok", "warn", "silent"]);
    const lostLines = lines.filter((l) => l.msg.startsWith("Redis lost"));
    expect(lostLines).toHaveLength(1);
    expect(lostLines[0]?.level).toBe(40);
    expect(await metricValue(metrics, "chainpulse_redis_outages_total")).toBe(1);
    expect(await metricValue(metrics, "chainpulse_redis_up")).toBe(0);

    await redis.engine().start();
    await link.whenUp();
    expect((await budget.take("after", "c", t + 10)).kind).toBe("ok");
    observer = new Redis<"legacy">(redis.engine().url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    expect(await countedOnRedis("after")).toBe(true);
    expect(lines.filter((l) => l.msg.startsWith("Redis is back"))).toHaveLength(1);
    expect(lines.filter((l) => l.msg.startsWith("Redis lost"))).toHaveLength(1);
    expect(await metricValue(metrics, "chainpulse_redis_up")).toBe(1);
    expect(await metricValue(metrics, "chainpulse_redis_outages_total")).toBe(1);
    expect(changes).toEqual([true, false, true]);
  });
});

describe("Redis unreachable at start", () => {
  it("starts on the in-process fallbacks with one log line, and moves to Redis once it answers", async () => {
    const engine = await startRedis();
    await engine.stop();
    const { log, lines } = capturingLogger();
    const metrics = createMetrics({ processMetrics: false });
    const link = await connectRedis({ url: engine.url, log, onChange: countRedisChanges(metrics) });
    try {
      expect(link.isUp()).toBe(false);
      const budget = createBudget({ perUser: 1, redis: link });
      expect((await budget.take("u", "c", 0)).kind).toBe("ok");
      expect((await budget.take("u", "c", 1)).kind).toBe("warn");
      expect(lines.filter((l) => l.msg.startsWith("Redis lost"))).toHaveLength(1);
      expect(await metricValue(metrics, "chainpulse_redis_outages_total")).toBe(1);

      await engine.start();
      await link.whenUp();
      expect(await metricValue(metrics, "chainpulse_redis_up")).toBe(1);
      // Counted on Redis now, which has not seen this user yet.
      expect((await budget.take("u", "c", 2)).kind).toBe("ok");
    } finally {
      await link.close();
      await engine.stop();
    }
  });
});
