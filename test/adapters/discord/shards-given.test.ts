/**
 * A worker given its shards (DISCORD_SHARDS of DISCORD_SHARD_COUNT): it identifies as exactly
 * those, answers a server whose events arrive on one of them and never sees another's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createDiscordAdapter, type DiscordAdapter } from "../../../src/adapters/discord/index.js";
import { shardOfGuild } from "../../../src/adapters/discord/shards.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { OptionType, startFakeDiscord, type FakeDiscord, type FakeMessage } from "../../fakes/discord-api.js";
import { startRealCore, type RealCore } from "../real-core.js";

const guildOn = (shard: number): string => String((1_000_000_000_000n + BigInt(shard)) << 22n);

/** The embed title as Discord shows it, Markdown escapes undone. */
function titleOf(message: FakeMessage): string {
  return ((message.embeds[0] as { title?: string } | undefined)?.title ?? "").replace(/\\(.)/g, "$1");
}

describe("Discord shards given to a worker", () => {
  let fake: FakeDiscord;
  let store: SqliteStore;
  let real: RealCore;
  let adapter: DiscordAdapter;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    store = await openSqliteStore({ path: ":memory:" });
    real = await startRealCore({ store });
    adapter = createDiscordAdapter({
      token: fake.token,
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core: real.core,
      logger: pino({ level: "silent" }),
      shards: { count: 4, ids: [1, 3] },
    });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await fake.close();
    await real.close();
    await store.close();
  });

  it("identifies as shards 1 and 3 of 4 and says so", () => {
    expect(fake.identifies.map((i) => i.shard).sort()).toEqual([
      [1, 4],
      [3, 4],
    ]);
    expect(adapter.shards()).toEqual([1, 3]);
    expect(adapter.isReady()).toBe(true);
  });

  it("answers a server on one of its shards", async () => {
    expect(shardOfGuild(guildOn(3), 4)).toBe(3);
    const answer = await fake.chatInput({ name: "price", guildId: guildOn(3), options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(titleOf(answer.message)).toMatch(/^PEPE \$/);
    expect(fake.violations).toEqual([]);
  });

  it("never receives a server on a shard it was not given", async () => {
    real.sandbox.resetStats();
    const elsewhere = fake.chatInput({ name: "price", guildId: guildOn(0), options: [{ name: "tokens", type: OptionType.string, value: "wif" }] });
    // A later interaction on its own shard is answered; the one on shard 0 never reached it.
    const own = await fake.chatInput({ name: "price", guildId: guildOn(1), options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] }).settled();
    if (own.kind !== "message") throw new Error(own.kind);
    expect(titleOf(own.message)).toMatch(/^PEPE \$/);
    expect(elsewhere.requests()).toEqual([]);
    // PEPE's answer came from the cache; WIF was never looked up, so the market saw nothing.
    expect(real.sandbox.stats().total).toBe(0);
    expect(fake.requests.some((r) => JSON.stringify(r.body ?? "").includes("WIF"))).toBe(false);
  });
});
