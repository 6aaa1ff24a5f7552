/**
 * A worker given its shards (DISCORD_SHARDS of DISCORD_SHARD_COUNT): it identifies as exactly
 * those, answers a server whose events arrive on one of them and never sees another's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createDiscordAdapter, type DiscordAdapter } from "../../../src/adapters/discord/index.js";
import { shardOfGuild } from "../../../src/adapters/discord/shards.js";
import { OptionType, startFakeDiscord, type FakeDiscord } from "../../fakes/discord-api.js";
import { createTestCore, type TestCore } from "./test-core.js";
import { testCommands } from "./test-commands.js";

const guildOn = (shard: number): string => String((1_000_000_000_000n + BigInt(shard)) << 22n);

describe("Discord shards given to a worker", () => {
  let fake: FakeDiscord;
  let core: TestCore;
  let adapter: DiscordAdapter;

  beforeAll(async () => {
    fake = await startFakeDiscord();
    core = createTestCore({ commands: testCommands().commands });
    adapter = createDiscordAdapter({
      token: fake.token,
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core,
      logger: pino({ level: "silent" }),
      shards: { count: 4, ids: [1, 3] },
    });
    await adapter.start();
  });
  afterAll(async () => {
    await adapter.stop();
    await fake.close();
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
    expect(answer.kind).toBe("message");
    expect(fake.violations).toEqual([]);
  });

  it("never receives a server on a shard it was not given", async () => {
    const calls = core.calls.length;
    const elsewhere = fake.chatInput({ name: "price", guildId: guildOn(0), options: [{ name: "tokens", type: OptionType.string, value: "wif" }] });
    // A later interaction on its own shard is answered; the one on shard 0 never reached it.
    await fake.chatInput({ name: "price", guildId: guildOn(1), options: [{ name: "tokens", type: OptionType.string, value: "pepe" }] }).settled();
    expect(elsewhere.requests()).toEqual([]);
    expect(core.calls.slice(calls).map((c) => c.args)).toEqual([["pepe"]]);
  });
});
