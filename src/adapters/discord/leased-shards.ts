/**
 * Gateway shards shared among the bot's workers by leases in Redis: the token is checked once
 * over REST, then each shard this worker gains runs in a client of its own, logged in, and each
 * it loses is closed. The REST client that answers stays the adapter's own.
 */
import { Routes, type Client } from "discord.js";
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { SharedRedis } from "../../redis/connection.js";
import { loginFailure } from "./login.js";
import { createShardClaimer, type ShardClaimer } from "./shards.js";

export interface ShardLeases {
  redis: SharedRedis;
  worker: string;
  ttlMs?: number;
}

export interface LeasedShardsOptions {
  /** The adapter's REST client: checks the token before any lease is taken. */
  rest: Client;
  token: string;
  apiRoot: string;
  applicationId: string;
  shardCount: number;
  lease: ShardLeases;
  log: Logger;
  /** A new gateway client for `shard`, its events wired as the adapter's. */
  gateway(shard: number): Client;
  /** The last gateway close code seen, which names a refused intent. */
  lastCloseCode(): number | undefined;
}

export interface LeasedShards {
  start(): Promise<void>;
  stop(): Promise<void>;
  held(): number[];
  ready(): boolean;
  /** The gateway clients of the shards held now, whose caches know their servers. */
  gateways(): Client[];
}

export function leasedShards(o: LeasedShardsOptions): LeasedShards {
  const gateways = new Map<number, Client>();
  let claimer: ShardClaimer | undefined;
  return {
    async start() {
      o.rest.rest.setToken(o.token);
      try {
        // The token is checked once here, so that a refused one stops the start as a login would.
        await o.rest.rest.get(Routes.user("@me"));
      } catch (err) {
        await o.rest.destroy().catch(() => undefined);
        throw loginFailure(err, o.token, o.apiRoot, undefined);
      }
      claimer = createShardClaimer({
        redis: o.lease.redis,
        scope: o.applicationId,
        shardCount: o.shardCount,
        // A restart is a new holder: the dead process's leases run out rather than being renewed by its successor.
        holder: `${o.lease.worker}.${randomBytes(4).toString("hex")}`,
        ...(o.lease.ttlMs === undefined ? {} : { ttlMs: o.lease.ttlMs }),
        logger: o.log,
        async onGain(shard) {
          const gateway = o.gateway(shard);
          gateways.set(shard, gateway);
          try {
            await gateway.login(o.token);
          } catch (err) {
            gateways.delete(shard);
            await gateway.destroy().catch(() => undefined);
            throw loginFailure(err, o.token, o.apiRoot, o.lastCloseCode());
          }
        },
        async onLose(shard) {
          const gateway = gateways.get(shard);
          gateways.delete(shard);
          await gateway?.destroy();
        },
      });
      await claimer.start();
    },
    async stop() {
      await claimer?.stop();
      await Promise.all([...gateways.values()].map((g) => g.destroy()));
    },
    held: () => claimer?.held() ?? [],
    ready: () => [...gateways.values()].every((g) => g.isReady()),
    gateways: () => [...gateways.values()],
  };
}
