import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buysCommands, feedPairs } from "../../src/buys/commands.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import type { Reply } from "../../src/core/reply.js";
import { openSqliteStore, type SqliteStore } from "../../src/store/sqlite/store.js";
import { startRealCore, type RealCore } from "../adapters/real-core.js";

const admin = (chatId: string): ChatContext => ({ platform: "telegram", chatId, userId: "u", isPrivate: false, isAdmin: async () => true });
const member = (chatId: string): ChatContext => ({ platform: "telegram", chatId, userId: "m", isPrivate: false, isAdmin: async () => false });

function text(r: Reply | null): string {
  if (r === null) return "";
  const blocks = r.blocks.map((b) => (b.kind === "text" ? b.text : b.kind === "fields" ? b.fields.map((f) => `${f.label}: ${f.value}`).join("\n") : ""));
  return [r.title, ...blocks].join("\n");
}

describe("/buys and /stopbuys", () => {
  let store: SqliteStore;
  let real: RealCore;
  let core: BotCore;
  beforeAll(async () => {
    store = await openSqliteStore({ path: ":memory:" });
    real = await startRealCore({
      store,
      extraCommands: buysCommands({ maxPerChat: 2, pollSeconds: 15, maxPollSeconds: 300, budget: () => ({ rate: 0.5 }) }),
    });
    core = real.core;
  });
  afterAll(async () => {
    await real.close();
    await store.close();
  });
  const say = async (chat: ChatContext, line: string) => text(await core.handleText(chat, line));

  it("says how to start when the chat follows nothing", async () => {
    expect(await say(admin("g0"), "/buys")).toBe("This chat follows no token's buys.\nStart with /buys and a token, e.g. /buys pepe min 250.");
  });

  it("starts a feed with the defaults, changes only the options named, and lists how often it is checked", async () => {
    const g = admin("g1");
    expect(await say(g, "/buys pepe")).toMatch(/^Posting the buys of PEPE \(eth\) here from now on\.\nmin \$50 · sells off · whale \$10K · 🟢 per \$50 · no media · checked about every 15 s\nStop with \/stopbuys PEPE\.$/);
    expect(await say(g, "/buys pepe min $1.5k sells on emoji 🚀")).toMatch(/^The buy feed of PEPE \(eth\) is changed\.\nmin \$1\.5K · sells on · whale \$10K · 🚀 per \$50/);
    expect(await say(g, "/buys")).toMatch(/^Buy feeds of this chat: 1 of 2\nPEPE \(eth\) — min \$1\.5K · sells on · whale \$10K · 🚀 per \$50 · no media · checked about every 15 s$/);
    const [feed] = await store.buys.listFeeds({ platform: "telegram", chatId: "g1" });
    expect(feed?.options).toEqual({ minUsd: "1500", sells: true, whaleUsd: "10000", emoji: "🚀", stepUsd: "50" });
    expect((await store.buys.watches()).length).toBeGreaterThan(0);
  });

  it("answers each bad input with one sentence", async () => {
    const g = admin("g2");
    expect(await say(g, "/buys pepe min lots")).toBe('"lots" is not an amount for min; type one like 250, $1.5k or 2k.');
    expect(await say(g, "/buys pepe sells maybe")).toBe('"maybe" is not on or off; type sells on or sells off.');
    expect(await say(g, "/buys pepe emoji <b>x</b>")).toBe('"<b>x</b>" is not one emoji; type emoji and one emoji, like emoji 🚀.');
    expect(await say(g, "/buys pepe whale")).toBe("whale needs a value after it, like whale 250.");
    expect(await say(g, "/buys pepe constructor 5")).toBe('"constructor" is not a /buys option; use min, sells, whale, emoji, step or media.');
    expect(await say(member("g2"), "/buys pepe")).toBe("Only this chat's admins can manage its buy feeds.");
    expect(await say(member("g2"), "/stopbuys all")).toBe("Only this chat's admins can manage its buy feeds.");
    expect(await say(g, "/stopbuys pepe")).toBe("This chat does not follow the buys of pepe.");
    expect(await store.buys.listFeeds({ platform: "telegram", chatId: "g2" })).toEqual([]);
  });

  it("refuses a token past the chat's limit, naming it, and stops one or all", async () => {
    const g = admin("g3");
    await say(g, "/buys pepe");
    await say(g, "/buys wif");
    expect(await say(g, "/buys bonk")).toBe("This chat already follows 2 tokens, the most it may (2); /stopbuys one first.");
    expect(await say(g, "/stopbuys PEPE")).toBe("No more buys of PEPE here.");
    expect(await say(g, "/stopbuys all")).toBe("Stopped the one buy feed of this chat.");
  });

  it("watches only pairs with liquidity, most liquid first, at most three", () => {
    const pair = (id: string, usd: number, fake = false) => ({ pair: id, chain: "eth", reserve0: String(usd / 2), token0_price_usd: "1", reserve1: "0", token1_price_usd: "1", is_fake: fake });
    expect(feedPairs([pair("a", 500), pair("b", 5_000), pair("c", 90_000), pair("d", 20_000, true), pair("e", 2_000), pair("f", 3_000)])).toEqual(["c-eth", "b-eth", "f-eth"]);
    expect(feedPairs([pair("a", 10)])).toEqual([]);
  });
});
