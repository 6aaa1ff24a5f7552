import { describe, expect, it } from "vitest";
import { planFold } from "../../src/buys/fold.js";
import { DEFAULT_OPTIONS, parseUsd } from "../../src/buys/options.js";
import { readSwap, type Trade } from "../../src/buys/trade.js";
import { renderPost } from "../../src/core/posts/render.js";
import type { Reply } from "../../src/core/reply.js";
import type { BuyOptions } from "../../src/store/types.js";
import { wordsFor } from "../../src/i18n/index.js";
import { HOSTILE_TOKENS } from "../../src/sandbox/index.js";

const TOKEN = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const TX_TIME = Date.UTC(2026, 10, 22, 12, 3, 10) / 1000;

function trade(extra: Partial<Trade> = {}): Trade {
  return {
    swapKey: "k", pairId: "0xpair-eth", tokenId: TOKEN, chain: "eth", side: "buy", txHash: "0xabc123", txTime: TX_TIME,
    amountUsd: "1234.5", quoteAmount: "0.41", quoteSymbol: "WETH", tokenAmount: "98765432.1", priceUsd: "0.0000125",
    wallet: "0x1111111111111111111111111111111111111111", amm: "uniswapv2", ...extra,
  };
}

function all(r: Reply): string {
  const blocks = r.blocks.map((b) => (b.kind === "fields" ? b.fields.map((f) => `${f.label}: ${f.value}`).join("\n") : b.kind === "text" ? b.text : ""));
  const links = r.actions.flat().map((a) => (a.kind === "url" ? `${a.label} → ${a.url}` : a.label));
  return [r.title, ...blocks, ...links].join("\n");
}

const AT = (TX_TIME + 25) * 1000;
const MARKET = { cap: { kind: "fdv" as const, usd: "5200000000" }, explorer: "https://etherscan.io" };

/** The post `BotCore.render` writes from the record the feed stores. */
function buyPost(t: Trade, options: BuyOptions, o: { locale?: string; symbol?: string } = {}): Reply {
  const record = JSON.stringify({ symbol: o.symbol ?? "PEPE", chain: "eth", options, trades: [t], ...MARKET });
  return renderPost({ kind: "buy", record, at: AT }, "test", wordsFor(o.locale ?? "en"));
}

function summaryPost(trades: Trade[], options: BuyOptions): Reply {
  return renderPost({ kind: "buy-summary", record: JSON.stringify({ symbol: "PEPE", chain: "eth", options, trades }) }, "test", wordsFor("en"));
}

describe("a buy post", () => {
  it("shows the bar, spent in USD and in the token paid with, received, price, FDV labelled, DEX, buyer, time and links", () => {
    expect(all(buyPost(trade(), DEFAULT_OPTIONS))).toBe([
      `${"🟢".repeat(24)} PEPE buy`,
      "Spent: $1,235 (0.41 WETH)",
      "Received: 98.8M PEPE",
      "Price: $0.0₄125",
      "FDV: $5.2B",
      "DEX: uniswapv2",
      "Buyer: 0x1111…1111",
      "Time: 12:03:10 UTC · 25 s ago",
      "Buyer → https://etherscan.io/address/0x1111111111111111111111111111111111111111",
      "Transaction → https://etherscan.io/tx/0xabc123",
    ].join("\n"));
  });

  it("marks a whale with 🐳, caps the bar at 40, posts a sell in red, and never says new holder", () => {
    const whale = buyPost(trade({ amountUsd: "25000" }), DEFAULT_OPTIONS);
    expect(whale.title).toBe(`🐳 ${"🟢".repeat(40)} PEPE buy`);
    const sell = buyPost(trade({ side: "sell", amountUsd: "120" }), { ...DEFAULT_OPTIONS, sells: true });
    expect(sell.tone).toBe("danger");
    expect(sell.title).toBe("🔴🔴 PEPE sell");
    expect(all(sell)).toContain("Seller: 0x1111…1111");
    for (const r of [whale, sell]) expect(all(r).toLowerCase()).not.toContain("holder");
  });

  it("keeps a bar of long emoji short enough that the symbol and buy stay in the title", () => {
    for (const emoji of ["🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👩🏽‍❤️‍💋‍👨🏻"]) {
      const title = buyPost(trade({ amountUsd: "25000" }), { ...DEFAULT_OPTIONS, emoji, stepUsd: "1" }).title;
      expect(title.endsWith(" PEPE buy")).toBe(true);
      // Within the 256 a title holds on Telegram and Discord, with room for a long symbol.
      expect(title.length).toBeLessThanOrEqual(200);
      expect(title).toContain(emoji.repeat(2));
    }
  });

  it("says where its data is from, as of the trade, in the footer every post carries", () => {
    expect(buyPost(trade(), DEFAULT_OPTIONS).footer).toEqual({ source: "test", asOf: TX_TIME * 1000 });
    const trades = [trade({ txTime: TX_TIME }), trade({ txTime: TX_TIME + 40 })];
    expect(summaryPost(trades, DEFAULT_OPTIONS).footer).toEqual({ source: "test", asOf: (TX_TIME + 40) * 1000 });
  });

  it("reads in Chinese from the locale file", () => {
    expect(all(buyPost(trade(), DEFAULT_OPTIONS, { locale: "zh" }))).toContain("时间: 12:03:10 UTC · 25 秒前");
  });

  it("keeps hostile symbols and wallets as cleaned text and never links a wallet that is not an address", () => {
    for (const h of HOSTILE_TOKENS) {
      const r = buyPost(trade({ quoteSymbol: h.symbol, wallet: h.name, txHash: h.name }), DEFAULT_OPTIONS, { symbol: h.symbol });
      const shown = all(r);
      expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u202a-\u202e\u2066-\u2069]/);
      expect(r.actions).toEqual([]);
    }
  });

  it("skips a swap whose amount_usd is missing or not finite instead of posting $0", () => {
    const tx = { tx_time: TX_TIME, to_token_address: TOKEN.split("-")[0], from_token_address: WETH, tx_hash: "0x1", chain: "eth" };
    expect(readSwap(TOKEN, "p-eth", tx)).toEqual({ skipped: "amount" });
    expect(readSwap(TOKEN, "p-eth", { ...tx, amount_usd: "NaN" })).toEqual({ skipped: "amount" });
    expect(readSwap(TOKEN, "p-eth", { ...tx, amount_usd: "1e400" })).toEqual({ skipped: "amount" });
    // Finite, but more dollars than a post can print ("Spent: —"): a data error, skipped as well.
    expect(readSwap(TOKEN, "p-eth", { ...tx, amount_usd: "1e30" })).toEqual({ skipped: "amount" });
    expect(readSwap(TOKEN, "p-eth", { ...tx, amount_usd: "12" })).toMatchObject({ trade: { side: "buy", amountUsd: "12" } });
  });
});

describe("a burst folded", () => {
  it("sends what the chat's pace takes and folds the rest into one summary, every buy in exactly one", () => {
    const queued = Array.from({ length: 55 }, (_, i) => i);
    const plan = planFold(queued, 40);
    expect(plan.posts).toHaveLength(39);
    expect(plan.folded).toHaveLength(16);
    expect([...plan.folded, ...plan.posts]).toEqual(queued);
    expect(planFold([1, 2, 3], 40)).toEqual({ posts: [1, 2, 3], folded: [] });
  });

  it("posts the whales of a burst on their own, folding the others, in the order they came", () => {
    const queued = Array.from({ length: 55 }, (_, i) => i);
    const whale = (i: number) => i === 2 || i === 7 || i === 50;
    const plan = planFold(queued, 40, whale);
    expect(plan.posts).toHaveLength(39);
    expect(plan.posts).toEqual(expect.arrayContaining([2, 7, 50]));
    expect(plan.folded.some(whale)).toBe(false);
    expect([...plan.posts].sort((a, b) => a - b)).toEqual(plan.posts);
    expect([...plan.folded, ...plan.posts].sort((a, b) => a - b)).toEqual(queued);
    // More whales than posts: the newest whales post, the older fold with the rest.
    const many = planFold(queued, 4, () => true);
    expect(many).toEqual({ posts: [52, 53, 54], folded: queued.slice(0, 52) });
  });

  it("says how many more, how much, over how long, the largest and by whom", () => {
    const trades = [trade({ amountUsd: "300", txTime: TX_TIME }), trade({ amountUsd: "2300", txTime: TX_TIME + 40, wallet: "0xab00000000000000000000000000000000000cd" })];
    expect(summaryPost(trades, DEFAULT_OPTIONS).title).toBe("🟢 2 more PEPE buys · $2,600 in 40 s · largest $2,300 by 0xab00…00cd");
    // With sells on, a summary that holds one counts trades.
    const mixed = [...trades, trade({ side: "sell", amountUsd: "5120", txTime: TX_TIME + 50 })];
    expect(summaryPost(mixed, { ...DEFAULT_OPTIONS, sells: true }).title).toBe("🟢 3 more PEPE trades · $7,720 in 50 s · largest $5,120 by 0x1111…1111");    // Trades of one second are not "in 0 s".
    const together = [trade({ amountUsd: "300", txTime: TX_TIME }), trade({ amountUsd: "400", txTime: TX_TIME })];
    expect(summaryPost(together, DEFAULT_OPTIONS).title).toBe("🟢 2 more PEPE buys · $700 within one second · largest $400 by 0x1111…1111");
  });
});

describe("amounts people type", () => {
  it("reads 250, $1.5k, 2k and 1,000, and nothing else", () => {
    expect(["250", "$1.5k", "2K", "1,000", "0.5"].map(parseUsd)).toEqual(["250", "1500", "2000", "1000", "0.5"]);
    expect(["", "lots", "-5", "0", "1e3", "1,00", "$", "Infinity", "0.001"].map(parseUsd)).toEqual(Array(9).fill(undefined));
  });
});
