import { beforeEach, describe, expect, it } from "vitest";
import type { NewCall } from "../../src/store/types.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();
const BOARD = { platform: "telegram" as const, chatId: "-1001" };

function call(over: Partial<NewCall> = {}): NewCall {
  return {
    platform: "telegram", boardId: "-1001", tokenId: "0xabc-eth", symbol: "ABC", chain: "eth",
    userId: "1", userName: "ana", userHandle: "ana_x", calledAt: 1_000, price: "0.0012", marketCap: "1200000", ...over,
  };
}

describe.each(ENGINES)("calls on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });

  it("records the first of two calls made at once and keeps it across a reopen", async () => {
    const a = await db.open();
    const b = await db.open();
    const [one, two] = await Promise.all([a.calls.recordCall(call(), 0), b.calls.recordCall(call({ userId: "2", userName: "bob", calledAt: 1_001 }), 0)]);
    expect([one.made, two.made].filter(Boolean)).toHaveLength(1);
    expect(one.call.id).toBe(two.call.id);
    await a.close();
    const again = await db.open();
    expect(await again.calls.currentCall(BOARD, "0xabc-eth", 0)).toEqual(one.call);
    expect(await again.calls.findCaller(BOARD, { handle: "@ANA_X", name: "@ANA_X" })).toEqual({ userId: one.call.userId, userName: one.call.userName });
  });

  it("lets a call made before `since` stand no more, and keeps boards per chat", async () => {
    const store = await db.open();
    await store.calls.recordCall(call(), 0);
    const later = await store.calls.recordCall(call({ userId: "2", userName: "bob", calledAt: 5_000 }), 2_000);
    expect(later.made).toBe(true);
    await store.calls.recordCall(call({ boardId: "-1002" }), 0);
    expect((await store.calls.boardCalls(BOARD, 0)).map((c) => c.userName)).toEqual(["ana", "bob"]);
    expect((await store.calls.memberCalls(BOARD, "2", 10)).map((c) => c.calledAt)).toEqual([5_000]);
    expect(await store.calls.removeCall(later.call.id)).toBe(true);
    expect(await store.calls.removeCall(later.call.id)).toBe(false);
  });

  it("saves what a sweep read, lists tokens read longest ago first, and forgets a left chat's board", async () => {
    const store = await db.open();
    const { call: a } = await store.calls.recordCall(call(), 0);
    await store.calls.recordCall(call({ tokenId: "0xdef-eth", calledAt: 500 }), 0);
    await store.calls.saveReads([{ callId: a.id, high: "0.005", highAt: 1_200, lastPrice: "0.002", sweptTo: 3_000 }]);
    expect(await store.calls.tokensToSweep(0)).toEqual([{ tokenId: "0xdef-eth", from: 500 }, { tokenId: "0xabc-eth", from: 3_000 }]);
    expect(await store.calls.currentCall(BOARD, "0xabc-eth", 0)).toMatchObject({ high: "0.005", highAt: 1_200, lastPrice: "0.002", sweptTo: 3_000 });
    await store.calls.setSweepStatus({ ranAt: 3_000, periodMs: 7_200_000, tokens: 2 });
    expect(await store.calls.sweepStatus()).toEqual({ ranAt: 3_000, periodMs: 7_200_000, tokens: 2 });
    await store.moveChat(BOARD, "-1009");
    expect(await store.calls.boardCalls({ platform: "telegram", chatId: "-1009" }, 0)).toHaveLength(2);
    await store.forgetChat({ platform: "telegram", chatId: "-1009" });
    expect(await store.calls.tokensToSweep(0)).toEqual([]);
  });

  it("keeps a Discord server's one board until the bot leaves the server, and the calls setting", async () => {
    const store = await db.open();
    await store.noteGuild({ platform: "discord", chatId: "111" }, "999");
    await store.calls.recordCall(call({ platform: "discord", boardId: "999" }), 0);
    await store.forgetChat({ platform: "discord", chatId: "111" });
    expect(await store.calls.boardCalls({ platform: "discord", chatId: "999" }, 0)).toHaveLength(1);
    await store.forgetGuild("999");
    expect(await store.calls.boardCalls({ platform: "discord", chatId: "999" }, 0)).toHaveLength(0);
    expect((await store.updateSettings(BOARD, { calls: false })).calls).toBe(false);
    expect((await store.getSettings(BOARD)).calls).toBe(false);
  });
});
