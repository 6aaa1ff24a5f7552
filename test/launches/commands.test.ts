import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Reply } from "../../src/core/reply.js";
import { digestCommands } from "../../src/digest/commands.js";
import { startClockedWorld, type ClockedWorld } from "../core/clocked-world.js";
import { groupChat } from "../core/helpers.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0);

const text = (r: Reply | null | undefined): string => JSON.stringify(r?.blocks ?? []);

describe("/subscribe launches", () => {
  let world: ClockedWorld;
  beforeAll(async () => {
    world = await startClockedWorld({ start: T0, tmpPrefix: "cp-launch-cmd-", core: { extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }) } });
  });
  afterAll(() => world.close());
  const admin = groupChat("u1", "g1", true);
  const say = async (chat: typeof admin, line: string) => world.core.handleText(chat, line);

  it("subscribes an admin's chat, lists it and stops it", async () => {
    expect((await say(admin, "/subscribe launches solana min 5000"))?.title).toContain("New solana tokens will be posted here");
    expect(await world.store.launches.listLaunchSubscriptions(admin)).toMatchObject([{ chain: "solana", minLiquidity: 5000 }]);
    const list = await say(admin, "/subscriptions");
    expect(JSON.stringify(list?.blocks)).toContain("$5");
    expect((await say(admin, "/unsubscribe launches solana"))?.title).toBe("New solana tokens are no longer posted here.");
    expect(await world.store.launches.listLaunchSubscriptions(admin)).toEqual([]);
  });

  it("answers bad input with one sentence and stores nothing", async () => {
    const member = groupChat("u2", "g2", false);
    expect((await say(member, "/subscribe launches solana"))?.title).toBe("Only this chat's admins can manage launch posts.");
    expect((await say(member, "/unsubscribe launches solana"))?.title).toBe("Only this chat's admins can manage launch posts.");
    expect((await say(admin, "/subscribe launches"))?.title).toBe("Say which chain's new tokens to post, e.g. /subscribe launches solana.");
    expect((await say(admin, "/subscribe launches solana min lots"))?.title).toBe("Say the minimum liquidity in USD, e.g. /subscribe launches solana min 5000.");
    expect((await say(admin, "/subscribe launches nochain"))?.error).toBeDefined();
    expect(await world.store.launches.listLaunchSubscriptions(admin)).toEqual([]);
  });

  it("takes the minimum as amounts are typed elsewhere", async () => {
    const chat = groupChat("u1", "g3", true);
    for (const [typed, usd] of [["1.5k", 1500], ["$2k", 2000], ["5,000", 5000], ["250", 250]] as const) {
      expect((await say(chat, `/subscribe launches solana min ${typed}`))?.error).toBeUndefined();
      expect(await world.store.launches.listLaunchSubscriptions(chat)).toMatchObject([{ chain: "solana", minLiquidity: usd }]);
    }
  });

  it("says the one digest /unsubscribe all stopped in the singular, and that launch posts go on", async () => {
    const chat = groupChat("u1", "g5", true);
    await say(chat, "/subscribe solana");
    await say(chat, "/subscribe launches solana");
    const reply = await say(chat, "/unsubscribe all");
    expect(reply?.title).toBe("Stopped the one digest here.");
    expect(text(reply)).toContain("Launch posts on solana go on");
  });

  it("says which chains to name when /unsubscribe launches names none, and stops every chain named", async () => {
    const chat = groupChat("u1", "g4", true);
    expect((await say(chat, "/unsubscribe launches"))?.title).toBe("This chat gets no launch posts.");
    await say(chat, "/subscribe launches solana");
    await say(chat, "/subscribe launches eth");
    expect((await say(chat, "/unsubscribe launches"))?.title).toBe(
      "Say which chain's launch posts to stop: this chat gets them on eth, solana, e.g. /unsubscribe launches <chain>.",
    );
    const stopped = await say(chat, "/unsubscribe launches solana eth bsc");
    expect(stopped?.title).toBe("New solana, eth tokens are no longer posted here.");
    expect(text(stopped)).toContain("This chat gets no bsc launch posts.");
    expect(await world.store.launches.listLaunchSubscriptions(chat)).toEqual([]);
  });

  it("writes the minimum with 万 in a Chinese chat", async () => {
    const chat = groupChat("u1", "g5", true);
    await say(chat, "/settings language zh");
    expect((await say(chat, "/subscribe launches solana min 15000"))?.title).toContain("最低流动性 $1.5万");
    expect(text(await say(chat, "/subscriptions"))).toContain("$1.5万");
  });
});
