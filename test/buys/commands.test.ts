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
    // In Chinese the token's chain is in the full-width brackets the rest of the feed's answers use.
    expect(await say({ ...g, isPrivate: true, userLanguage: "zh-hans", chatId: "g1" }, "/buys")).toContain("\nPEPE（eth） — ");
    const [feed] = await store.buys.listFeeds({ platform: "telegram", chatId: "g1" });
    expect(feed?.options).toEqual({ minUsd: "1500", sells: true, whaleUsd: "10000", emoji: "🚀", stepUsd: "50" });
    expect((await store.buys.watches()).length).toBeGreaterThan(0);
  });

  it("lists two feeds of one symbol each with the id /stopbuys takes for it", async () => {
    const g = admin("g-two");
    const pepes = real.sandbox.market.bySymbol("pepe").filter((p) => p.pairs.length > 0);
    const [a, b] = [pepes.find((p) => p.chain === "eth"), pepes.find((p) => p.chain === "bsc")];
    await say(g, `/buys ${a?.id ?? ""}`);
    await say(g, `/buys ${b?.id ?? ""}`);
    const listed = await say(g, "/buys");
    expect(listed).toContain(`stop with /stopbuys ${a?.id ?? ""}`);
    expect(listed).toContain(`stop with /stopbuys ${b?.id ?? ""}`);
  });

  it("says so when the whale amount leaves every buy a whale", async () => {
    expect(await say(admin("g-whale"), "/buys pepe min 100 whale 50")).toContain("The whale amount is at or under the minimum: every buy posted here is marked 🐳.");
    expect(await say(admin("g-whale2"), "/buys pepe min 100 whale 5000")).not.toContain("every buy posted here is marked");
  });

  it("sends the chat's posts to the forum topic the feed was set up in", async () => {
    const g = { ...admin("g-forum"), topic: "42" };
    await say(g, "/buys pepe");
    expect((await store.getSettings(g)).postTopic).toBe("42");
  });

  it("says where the data is from on the feed's answers, and that nothing changed when nothing did", async () => {
    const g = admin("g4");
    const started = await core.handleText(g, "/buys pepe");
    expect(started?.footer).toMatchObject({ source: "demo data (sandbox)", asOf: expect.any(Number) });
    expect((await core.handleText(g, "/buys"))?.footer).toMatchObject({ source: "demo data (sandbox)" });
    expect(await say(g, "/buys pepe")).toMatch(/^The buy feed of PEPE \(eth\) already has these options; nothing changed\.\n/);
    expect(await say(g, "/buys pepe min 50 sells off")).toMatch(/^The buy feed of PEPE \(eth\) already has these options; nothing changed\./);
    expect(await say(g, "/buys pepe min 60")).toMatch(/^The buy feed of PEPE \(eth\) is changed\./);
  });

  it("names a token by its id where this chat follows two of one symbol, and asks which one to stop", async () => {
    const g = admin("g5");
    expect(await say(g, "/buys pepe")).toMatch(/\nStop with \/stopbuys PEPE\.$/);
    const bsc = await say(g, "/buys pepe bsc");
    expect(bsc).toMatch(/^Posting the buys of PEPE \(bsc\) here from now on\./);
    const feeds = await store.buys.listFeeds({ platform: "telegram", chatId: "g5" });
    const [eth, other] = ["eth", "bsc"].map((c) => feeds.find((f) => f.chain === c));
    expect(bsc).toMatch(new RegExp(`\\nStop with /stopbuys ${other!.tokenId}\\.$`));
    const which = await say(g, "/stopbuys pepe");
    expect(which).toMatch(/^This chat follows more than one PEPE; stop one by its id: \/stopbuys \S+, \/stopbuys \S+\.$/);
    for (const f of [eth, other]) expect(which).toContain(`/stopbuys ${f!.tokenId}`);
    expect(await say(g, `/stopbuys ${other!.tokenId}`)).toBe("No more buys of PEPE here.");
    expect((await store.buys.listFeeds({ platform: "telegram", chatId: "g5" })).map((f) => f.chain)).toEqual(["eth"]);
  });

  it("takes any one emoji, flags, keycaps and tag sequences included, and nothing more", async () => {
    const g = admin("g6");
    for (const e of ["🇺🇸", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👨‍👩‍👧", "👍🏽", "❤️", "❤"]) {
      expect(await say(g, `/buys pepe emoji ${e}`)).toContain(`· ${e} per $50 ·`);
    }
    for (const e of ["🇺", "🇺🇸🇺🇸", "🚀🚀", "1", "#"]) expect(await say(g, `/buys pepe emoji ${e}`)).toBe(`"${e}" is not one emoji; type emoji and one emoji, like emoji 🚀.`);
  });

  it("answers each bad input with one sentence", async () => {
    const g = admin("g2");
    expect(await say(g, "/buys pepe min lots")).toBe('"lots" does not work as min: type an amount from $0.01 to $1T, like 250, $1.5k or 2k.');
    expect(await say(g, "/buys pepe min 0")).toBe('"0" does not work as min: type an amount from $0.01 to $1T, like 250, $1.5k or 2k.');
    expect(await say(g, "/buys pepe sells maybe")).toBe('"maybe" is not on or off; type sells on or sells off.');
    expect(await say(g, "/buys pepe emoji <b>x</b>")).toBe('"<b>x</b>" is not one emoji; type emoji and one emoji, like emoji 🚀.');
    expect(await say(g, "/buys pepe whale")).toBe("whale needs a value after it, like whale 5k.");
    // A feed posts for weeks: a word no token is called never starts one on its closest match.
    expect(await say(g, "/buys frog")).toMatch(/^No token is called "frog"; the closest is (\S+) on \S+\. To use it, name it exactly: \1\.$/);
    expect(await say(g, "/buys pepe sells")).toBe("sells needs a value after it, like sells on.");
    expect(await say(g, "/buys pepe emoji")).toBe("emoji needs a value after it, like emoji 🚀.");
    expect(await say(g, "/buys pepe min 100 step")).toBe("step needs a value after it, like step 100.");
    expect(await say({ ...g, isPrivate: true, userLanguage: "zh-hans" }, "/buys pepe sells")).toBe("sells 后面需要一个值，如 sells on。");
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
