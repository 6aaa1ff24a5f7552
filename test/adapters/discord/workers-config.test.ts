/**
 * The Discord settings of one worker among several: DISCORD_SHARD_COUNT, DISCORD_SHARDS and
 * DISCORD_PUBLIC_KEY read and refused in one sentence naming the variable, and what the
 * adapter is given from them with and without Redis.
 */
import { describe, expect, it } from "vitest";
import { discordWorkerOptions } from "../../../src/adapters/discord/index.js";
import { ConfigError, loadConfig } from "../../../src/config.js";
import type { SharedRedis } from "../../../src/redis/connection.js";

const DISCORD = { DISCORD_BOT_TOKEN: "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.abcdefghijklmnop", DISCORD_APPLICATION_ID: "1098765432109876543" };
const KEY = "A".repeat(64);

function refusal(env: Record<string, string>): ConfigError {
  try {
    loadConfig({ ...DISCORD, ...env });
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error("expected a ConfigError");
}

const redis = { isUp: () => true } as unknown as SharedRedis;

describe("Discord settings for several workers", () => {
  it("reads the shard count, this worker's shards and the public key", () => {
    const discord = loadConfig({ ...DISCORD, DISCORD_SHARD_COUNT: "4", DISCORD_SHARDS: "2, 3", DISCORD_PUBLIC_KEY: KEY, HTTP_PORT: "8080" }).discord;
    expect(discord?.shards).toEqual({ count: 4, ids: [2, 3] });
    expect(discord?.publicKey).toBe(KEY.toLowerCase());
    expect(loadConfig(DISCORD).discord?.shards).toBeUndefined();
  });

  it("refuses shards without a count, a shard past the count, a malformed list, a short key and a key without HTTP_PORT, naming the variable", () => {
    expect(refusal({ DISCORD_SHARDS: "0,1" }).message).toBe("DISCORD_SHARD_COUNT is required when DISCORD_SHARDS is set (the total the ids count within)");
    expect(refusal({ DISCORD_SHARD_COUNT: "2", DISCORD_SHARDS: "1,2" }).message).toBe("DISCORD_SHARDS names shard 2, but DISCORD_SHARD_COUNT=2 numbers them 0 to 1");
    expect(refusal({ DISCORD_SHARD_COUNT: "2", DISCORD_SHARDS: "one" }).variable).toBe("DISCORD_SHARDS");
    expect(refusal({ DISCORD_SHARD_COUNT: "0" }).variable).toBe("DISCORD_SHARD_COUNT");
    expect(refusal({ DISCORD_PUBLIC_KEY: "abc" }).variable).toBe("DISCORD_PUBLIC_KEY");
    expect(refusal({ DISCORD_PUBLIC_KEY: KEY }).message).toBe(
      "HTTP_PORT is required when DISCORD_PUBLIC_KEY is set: Discord's interactions endpoint is served on the bot's HTTP port",
    );
  });

  it("claims shards through Redis only when none are given and Redis is there; without Redis the worker runs them all", () => {
    const leased = loadConfig({ ...DISCORD, DISCORD_SHARD_COUNT: "4" }).discord!;
    expect(discordWorkerOptions(leased, redis, "worker-1").shards).toEqual({ count: 4, leases: { redis, worker: "worker-1" } });
    expect(discordWorkerOptions(leased, undefined, "worker-1").shards).toEqual({ count: 4 });
    const pinned = loadConfig({ ...DISCORD, DISCORD_SHARD_COUNT: "4", DISCORD_SHARDS: "0,1" }).discord!;
    expect(discordWorkerOptions(pinned, redis, "worker-1").shards).toEqual({ count: 4, ids: [0, 1] });
  });
});
