/**
 * The adapter's settings for one worker of several, from the configuration: its shards
 * (given, or claimed through Redis when there is one), the HTTP interactions key, and the
 * Redis that their REST calls share Discord's global rate through.
 */
import type { DiscordConfig } from "../../config.js";
import type { SharedRedis } from "../../redis/connection.js";
import type { DiscordAdapterOptions } from "./adapter.js";

export function discordWorkerOptions(
  config: DiscordConfig,
  redis: SharedRedis | undefined,
  worker: string,
): Pick<DiscordAdapterOptions, "shards" | "publicKey" | "redis"> {
  const shards = config.shards;
  return {
    ...(redis === undefined ? {} : { redis }),
    ...(config.publicKey === undefined ? {} : { publicKey: config.publicKey }),
    ...(shards === undefined
      ? {}
      : {
          shards: {
            count: shards.count,
            // Without Redis nobody else can be told apart: this worker runs every shard.
            ...(shards.ids === undefined ? {} : { ids: shards.ids }),
            ...(shards.ids === undefined && redis !== undefined ? { leases: { redis, worker } } : {}),
          },
        }),
  };
}

/**
 * The worker's shards as /readyz names them beside its other leases ("worker-1 holds discord
 * shards 0,1"); undefined when the bot is not sharded.
 */
export function discordShardLease(config: DiscordConfig, shards: readonly number[]): { name: string; held: boolean } | undefined {
  if (config.shards === undefined) return undefined;
  return shards.length === 0 ? { name: "discord shards", held: false } : { name: `discord shards ${shards.join(",")}`, held: true };
}
