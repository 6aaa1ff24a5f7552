import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { digestCommands } from "../../src/digest/commands.js";
import { startClockedWorld, type ClockedWorld } from "../core/clocked-world.js";
import { groupChat } from "../core/helpers.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0);

describe("/subscribe launches", () => {
  let world: ClockedWorld;
  beforeAll(async () => {
    world = await startClockedWorld({ start: T0, tmpPrefix: "cp-launch-cmd-", core: { extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }) } });
  });
  afterAll(() => world.close());
  const admin = groupChat("u1", "g1", true);

  it("subscribes an admin's chat, lists it and stops it", async () => {
    expect((await world.core.handleText(admin, "/subscribe launches solana min 5000"))?.title).toContain("New solana tokens will be posted here");
    expect(await world.store.launches.listLaunchSubscriptions(admin)).toMatchObject([{ chain: "solana", minLiquidity: 5000 }]);
    const list = await world.core.handleText(admin, "/subscriptions");
    expect(JSON.stringify(list?.blocks)).toContain("$5");
    expect((await world.core.handleText(admin, "/unsubscribe launches solana"))?.title).toBe("New solana tokens are no longer posted here.");
    expect(await world.store.launches.listLaunchSubscriptions(admin)).toEqual([]);
  });

  it("answers bad input with one sentence and stores nothing", async () => {
    expect((await world.core.handleText(groupChat("u2", "g2", false), "/subscribe launches solana"))?.title).toBe("Only this chat's admins can manage digests.");
    expect((await world.core.handleText(admin, "/subscribe launches solana min lots"))?.title).toBe("Say the minimum liquidity in USD, e.g. /subscribe launches solana min 5000.");
    expect((await world.core.handleText(admin, "/subscribe launches nochain"))?.error).toBeDefined();
    expect(await world.store.launches.listLaunchSubscriptions(admin)).toEqual([]);
  });
});
