/**
 * Which gateway shards this worker runs. Given (`DISCORD_SHARDS`) it runs those; otherwise the
 * workers of one bot share `DISCORD_SHARD_COUNT` shards through leases in Redis: each worker
 * renews its own leases, counts the live workers, takes free shards up to its fair share and
 * gives up what is above it (so a second worker gets half), and a dead worker's shards are
 * free once its leases run out, for a live one to take. While Redis is away a worker keeps the
 * shards it runs and takes no new ones: without the leases nobody can tell it is alone.
 */
import type { WebSocketOptions } from "discord.js";
import type { Logger } from "pino";
import type { SharedRedis } from "../../redis/connection.js";
import { LET_GO, TAKE_OR_RENEW } from "../../redis/hold-scripts.js";

/** Which shard a server's events arrive on (Discord's sharding formula). */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

export interface ShardClaimerOptions {
  redis: SharedRedis;
  /** Whose shards: the application id (one Redis may serve several bots). */
  scope: string;
  shardCount: number;
  /** This worker in the leases (WORKER_ID plus a random part, so a restart is a new holder). */
  holder: string;
  /** How long a lease lasts without renewal. Default 20 000 ms. */
  ttlMs?: number;
  /** How often leases are renewed and shards taken. Default a quarter of `ttlMs`. */
  renewMs?: number;
  logger: Logger;
  /** Starts the gateway for a shard this worker now holds. */
  onGain(shard: number): Promise<void>;
  /** Stops the gateway for a shard this worker no longer holds. */
  onLose(shard: number): Promise<void>;
}

export interface ShardClaimer {
  /** The shards this worker holds now, ascending. */
  held(): number[];
  /**
   * Claims once, then keeps renewing and balancing in the background. Rejects with the first
   * failure of `onGain` in that first claim (a refused token or intent stops the start, as a
   * login does) after freeing what it took.
   */
  start(): Promise<void>;
  /** Stops renewing and frees this worker's shards, so another worker takes them at once. */
  stop(): Promise<void>;
}

/** KEYS[1] the workers (sorted set by last seen); ARGV holder, now, ttl. Counts the live ones. */
const HEARTBEAT = `
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[2]) - tonumber(ARGV[3]))
redis.call('PEXPIRE', KEYS[1], ARGV[3] * 2)
return redis.call('ZCARD', KEYS[1])
`;

export function createShardClaimer(opts: ShardClaimerOptions): ShardClaimer {
  const { redis, shardCount, holder, logger } = opts;
  const ttlMs = opts.ttlMs ?? 20_000;
  const renewMs = opts.renewMs ?? Math.max(250, Math.floor(ttlMs / 4));
  const leaseKey = (shard: number): string => `discord:${opts.scope}:shard:${shard}`;
  const workersKey = `discord:${opts.scope}:workers`;
  const held = new Set<number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let firstFailure: unknown;
  let starting = true;

  const claim = async (shard: number): Promise<boolean> =>
    (await redis.client.eval(TAKE_OR_RENEW, 1, leaseKey(shard), holder, ttlMs)) === 1;

  const gain = async (shard: number): Promise<void> => {
    held.add(shard);
    logger.info({ shard, shardCount, holder }, "discord shard taken: this worker runs it");
    try {
      await opts.onGain(shard);
    } catch (err) {
      if (starting) firstFailure ??= err;
      // A gateway that will not start is no reason to keep others from running the shard.
      logger.error({ err, shard }, "discord shard could not start; freeing it");
      await lose(shard);
    }
  };

  const lose = async (shard: number): Promise<void> => {
    if (!held.delete(shard)) return;
    logger.info({ shard, shardCount, holder }, "discord shard given up: another worker runs it");
    await redis.client.eval(LET_GO, 1, leaseKey(shard), holder).catch(() => undefined);
    await opts.onLose(shard).catch((err: unknown) => logger.warn({ err, shard }, "discord shard did not stop cleanly"));
  };

  const round = async (): Promise<void> => {
    if (!redis.isUp()) return;
    try {
      const live = Number(await redis.client.eval(HEARTBEAT, 1, workersKey, holder, Date.now(), ttlMs));
      const fair = Math.ceil(shardCount / Math.max(1, live));
      for (const shard of [...held]) {
        if (!(await claim(shard))) await lose(shard);
      }
      // Above the fair share: the highest shards go first, for the newcomer to take.
      for (const shard of [...held].sort((a, b) => b - a)) {
        if (held.size <= fair) break;
        await lose(shard);
      }
      for (let shard = 0; shard < shardCount && held.size < fair; shard += 1) {
        if (stopped) return;
        if (!held.has(shard) && (await claim(shard))) await gain(shard);
      }
    } catch (err) {
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, "discord shard leases could not be renewed; keeping the shards this worker runs");
    }
  };

  const loop = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().finally(loop);
    }, renewMs);
    timer.unref();
  };

  return {
    held: () => [...held].sort((a, b) => a - b),
    async start() {
      if (!redis.isUp()) logger.warn({ shardCount }, "Redis is away: this worker takes discord shards once it is back");
      running = round();
      await running;
      starting = false;
      if (firstFailure !== undefined) {
        stopped = true;
        await Promise.all([...held].map((shard) => lose(shard)));
        await redis.client.zrem(workersKey, holder).catch(() => undefined);
        throw firstFailure;
      }
      loop();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
      await Promise.all([...held].map((shard) => lose(shard)));
      await redis.client.zrem(workersKey, holder).catch(() => undefined);
    },
  };
}

/** Discord lets one identify per `max_concurrency` bucket start every 5 s, counted per bot. */
const IDENTIFY_SPACING_MS = 5_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

/**
 * discord.js's identify throttler (`ws.buildIdentifyThrottler`) for several workers: each
 * worker's throttler spaces only its own shards, so the 5 s per bucket is taken from a key in
 * Redis that all of them share. While Redis is away the worker identifies at once and leaves
 * a refusal to discord.js's own retry.
 */
export function sharedIdentifyThrottler(redis: SharedRedis, scope: string): NonNullable<WebSocketOptions["buildIdentifyThrottler"]> {
  return async (manager) => identifyThrottler(redis, scope, (await manager.fetchGatewayInformation()).session_start_limit.max_concurrency);
}

function identifyThrottler(redis: SharedRedis, scope: string, maxConcurrency: number): { waitForIdentify(shardId: number, signal: AbortSignal): Promise<void> } {
  return {
    async waitForIdentify(shardId, signal) {
      const key = `discord:${scope}:identify:${shardId % Math.max(1, maxConcurrency)}`;
      for (;;) {
        if (signal.aborted) throw signal.reason as Error;
        if (!redis.isUp()) return;
        try {
          if ((await redis.client.set(key, String(shardId), "PX", IDENTIFY_SPACING_MS, "NX")) === "OK") return;
          const left = await redis.client.pttl(key);
          await sleep(Math.max(50, left), signal);
        } catch (err) {
          if (signal.aborted) throw err;
          return;
        }
      }
    },
  };
}
