/**
 * Shard leases on a real Redis, with short leases: workers split the shards fairly, a stopped
 * worker's shards go to the others, and a worker keeps its shards while Redis is away.
 */
import { EventEmitter } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createShardClaimer, shardOfGuild, type ShardClaimer } from "../../../src/adapters/discord/shards.js";
import { useRedis } from "../../engines/redis.js";
import { waitBound } from "../../fakes/wait-bound.js";

const { link, engine } = useRedis();
const claimers: ShardClaimer[] = [];
// Registered after useRedis, so (hooks run as a stack) the claimers stop before their links close.
afterAll(async () => {
  for (const c of claimers.splice(0)) await c.stop();
});

const changed = new EventEmitter();
changed.setMaxListeners(0);

/** Resolves once `check` holds, re-checked on every shard change and Redis going or coming back; fails after the wait bound. */
function when(check: () => boolean, what: string): Promise<void> {
  if (check()) return Promise.resolve();
  const bound = waitBound();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      changed.off("change", listener);
      reject(new Error(`not within ${bound} ms: ${what}`));
    }, bound);
    const listener = (): void => {
      if (!check()) return;
      clearTimeout(timer);
      changed.off("change", listener);
      resolve();
    };
    changed.on("change", listener);
  });
}

/** A worker of bot `scope` running `count` shards; `running` is what its gateway runs. */
async function worker(scope: string, name: string, count = 4) {
  const redis = await link({ commandTimeoutMs: 500, onChange: () => changed.emit("change") });
  const running = new Set<number>();
  const claimer = createShardClaimer({
    redis,
    scope,
    shardCount: count,
    holder: name,
    ttlMs: 1000,
    renewMs: 100,
    logger: pino({ level: "silent" }),
    onGain: async (shard) => {
      running.add(shard);
      changed.emit("change");
    },
    onLose: async (shard) => {
      running.delete(shard);
      changed.emit("change");
    },
  });
  claimers.push(claimer);
  return { claimer, running, redis };
}

describe("Discord shard leases in Redis", () => {
  it("puts a server on shard (id >> 22) % count, as Discord does", () => {
    expect(shardOfGuild("81384788765712384", 1)).toBe(0);
    expect(shardOfGuild(String((1000n << 22n) + 12345n), 4)).toBe(0);
    expect(shardOfGuild(String((1003n << 22n) + 12345n), 4)).toBe(3);
  });

  it("gives a worker alone every shard, then half to a second worker, each shard to one", async () => {
    const a = await worker("app-split", "a");
    await a.claimer.start();
    expect([...a.running].sort()).toEqual([0, 1, 2, 3]);
    const b = await worker("app-split", "b");
    await b.claimer.start();
    await when(() => a.running.size === 2 && b.running.size === 2, "two shards each");
    expect([...a.running, ...b.running].sort()).toEqual([0, 1, 2, 3]);
    expect(a.claimer.held()).toEqual([...a.running].sort());
  });

  it("hands a stopped worker's shards to the one left", async () => {
    const a = await worker("app-stop", "a");
    const b = await worker("app-stop", "b");
    await Promise.all([a.claimer.start(), b.claimer.start()]);
    await when(() => a.running.size === 2 && b.running.size === 2, "two shards each");
    await b.claimer.stop();
    expect(b.running.size).toBe(0);
    await when(() => a.running.size === 4, "the one left runs all four");
  });

  it("fails the start with the first shard's refusal and frees every lease it took", async () => {
    const redis = await link();
    const refused = createShardClaimer({
      redis,
      scope: "app-refused",
      shardCount: 2,
      holder: "refused",
      ttlMs: 1000,
      logger: pino({ level: "silent" }),
      onGain: async () => {
        throw new Error("Discord refused the Message Content intent (gateway close 4014)");
      },
      onLose: async () => undefined,
    });
    await expect(refused.start()).rejects.toThrow(/4014/);
    expect(refused.held()).toEqual([]);
    const other = await worker("app-refused", "other", 2);
    await other.claimer.start();
    expect([...other.running].sort()).toEqual([0, 1]);
  });

  it("keeps the shards it runs while Redis is away, and its leases once Redis is back", async () => {
    const a = await worker("app-away", "a", 2);
    await a.claimer.start();
    expect([...a.running].sort()).toEqual([0, 1]);
    await engine().stop();
    await when(() => !a.redis.isUp(), "Redis seen as lost");
    expect([...a.running].sort()).toEqual([0, 1]);
    await engine().start();
    await a.redis.whenUp();
    const other = await worker("app-away", "other", 2);
    await other.claimer.start();
    // Redis came back empty: a takes its leases again, and a newcomer still gets its fair share.
    await when(() => a.running.size === 1 && other.running.size === 1, "one shard each after Redis came back");
    expect([...a.running, ...other.running].sort()).toEqual([0, 1]);
  });
});
