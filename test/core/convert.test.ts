/**
 * /convert through the console against the sandbox: figures checked against the prices and
 * reserves the service gave, the constant-product impact, what a conversion costs, bad input.
 */
import { describe, expect, it } from "vitest";
import { readAmount } from "../../src/core/commands/convert-amount.js";
import { constantProductImpact, IMPACT_FROM_SHARE } from "../../src/core/commands/convert-impact.js";
import { pairLiquidity } from "../../src/core/commands/token.js";
import { formatExactAmount, formatExactUsd, formatPrice, formatRatio } from "../../src/core/format/index.js";
import type { Reply } from "../../src/core/reply.js";
import type { PairV2, TokenDetail } from "../../src/market/schemas.js";
import { HOSTILE_TOKENS, type SandboxToken } from "../../src/sandbox/index.js";
import { groupChat } from "./helpers.js";
import { sandboxPerFile } from "./sandbox-world.js";

const the = sandboxPerFile();

const bySymbol = (symbol: string): SandboxToken => the.world.sandbox.market.bySymbol(symbol)[0] as SandboxToken;
/** A launched, ordinary token whose pools are thin: a few thousand dollars move its price. */
function thinToken(): SandboxToken {
  const t0 = the.world.clock.now() / 1000;
  const found = the.world.sandbox.market.tokens.find((t) => t.chain === "eth" && !t.main && t.hostile === undefined && t.launchAt < t0 - 86_400 && t.liquidity > 20_000 && t.liquidity < 200_000);
  if (found === undefined) throw new Error("the sandbox has no thin token on eth");
  return found;
}

const firstLine = (out: string): string => out.split("\n")[0] ?? "";
const textOf = (r: Reply | null): string => (r?.blocks ?? []).map((b) => (b.kind === "text" ? b.text : "")).join("\n");

async function detailOf(id: string): Promise<TokenDetail> {
  // The cached detail the command read: no second call, the same figures.
  return (await the.bot.market.tokenDetail(id)).data;
}
const priceOf = (d: TokenDetail) => Number(d.token.current_price_usd);
function mainPair(d: TokenDetail): PairV2 {
  return (d.pairs.find((p) => p.pair === d.token.main_pair) ?? d.pairs.find((p) => p.is_fake !== true)) as PairV2;
}

describe("/convert figures", () => {
  it("converts a token amount to dollars at the token's price", async () => {
    const pepe = bySymbol("pepe").id;
    const out = await the.bot.say(`/convert 1.5m ${pepe}`);
    const price = priceOf(await detailOf(pepe));
    expect(out).toContain(`1.5M PEPE (eth) ≈ ${formatExactUsd(1.5e6 * price)}`);
    expect(out).toContain("Mid price, not a quote");
    expect(out).toContain("Data age");
  });

  it("reads a suffix typed apart from its number as the number's, not as a token", async () => {
    const [pepe, wif] = [bySymbol("pepe").id, bySymbol("wif").id];
    expect(firstLine(await the.bot.say(`/convert 1.5 m ${pepe}`))).toBe(firstLine(await the.bot.say(`/convert 1.5m ${pepe}`)));
    expect(firstLine(await the.bot.say(`/convert 2 k ${pepe} to ${wif}`))).toBe(firstLine(await the.bot.say(`/convert 2k ${pepe} to ${wif}`)));
    expect(firstLine(await the.bot.say(`/convert 2 k ${pepe} ${wif}`))).toBe(firstLine(await the.bot.say(`/convert 2k ${pepe} ${wif}`)));
  });

  it("converts dollars to a token amount", async () => {
    const pepe = bySymbol("pepe").id;
    const out = await the.bot.say(`/convert $100 ${pepe}`);
    const price = priceOf(await detailOf(pepe));
    expect(out).toContain(`$100 ≈ ${formatExactAmount(100 / price)} PEPE`);
  });

  it("converts token to token through both USD prices and shows both unit prices", async () => {
    const [pepe, wif] = [bySymbol("pepe").id, bySymbol("wif").id];
    const out = await the.bot.say(`/convert 2k ${pepe} to ${wif}`);
    const [p, w] = [priceOf(await detailOf(pepe)), priceOf(await detailOf(wif))];
    expect(out).toContain(`2,000 PEPE (eth) ≈ ${formatExactAmount((2000 * p) / w)} WIF (solana)`);
    expect(out).toMatch(/PEPE price\s+\$/);
    expect(out).toMatch(/WIF price\s+\$/);
    expect(out).toContain(`Value in USD  ${formatExactUsd(2000 * p)}`);
  });

  it("reads amounts as people write them", () => {
    expect(readAmount("1.5m")).toEqual({ kind: "amount", value: 1_500_000, dollars: false });
    expect(readAmount("2K")).toEqual({ kind: "amount", value: 2000, dollars: false });
    expect(readAmount("0.25")).toEqual({ kind: "amount", value: 0.25, dollars: false });
    expect(readAmount("$100")).toEqual({ kind: "amount", value: 100, dollars: true });
    expect(readAmount("1,000,000")).toEqual({ kind: "amount", value: 1_000_000, dollars: false });
    expect(readAmount("1,00")).toEqual({ kind: "not-a-number" });
    expect(readAmount("-3")).toEqual({ kind: "negative" });
    expect(readAmount("-0")).toEqual({ kind: "zero" });
    expect(readAmount("$-0.00")).toEqual({ kind: "zero" });
    expect(readAmount("0")).toEqual({ kind: "zero" });
    expect(readAmount("5000t")).toEqual({ kind: "too-large" });
    expect(readAmount("constructor")).toEqual({ kind: "not-a-number" });
  });
});

describe("/convert says which token it took", () => {
  it("carries a close match's note, names its chain, and offers the others converted the same", async () => {
    const reply = await the.bot.core.handleText(groupChat(), "/convert 2k pepe to frog");
    const note = /No token is called "frog"; the most liquid close match is (\S+) on (\S+)\./u.exec(textOf(reply));
    expect(note).not.toBeNull();
    const [, symbol, chain] = note as RegExpExecArray;
    expect(reply?.title).toMatch(new RegExp(`^2,000 PEPE \\(eth\\) ≈ \\S+ ${symbol} \\(${chain}\\)$`, "u"));
    expect(textOf(reply)).toMatch(/\d+ tokens are called PEPE; this is the original contract, on eth\./u);
    // A runner-up's button converts the same amount with it in place of the close match.
    const buttons = (reply?.actions ?? []).flat().filter((a) => a.kind === "command" && a.command === "convert" && a.args.length === 4);
    expect(buttons.some((a) => a.kind === "command" && a.args[0] === "2k" && a.args[1] === "pepe" && a.args[2] === "to" && a.args[3] !== "frog")).toBe(true);
  });

  it("names the chain typed, and the contract a famous symbol stands for", async () => {
    expect(firstLine(await the.bot.say("/convert 100 pepe bsc"))).toMatch(/^100 PEPE \(bsc\) ≈ /u);
    const btc = await the.bot.say("/convert 1 btc");
    expect(firstLine(btc)).toMatch(/^1 WBTC \(eth\) ≈ \$/u);
    expect(btc).toMatch(/tokens are called WBTC; this is the original contract, on eth\./u);
    // One address, a token on eth, base and bsc: the chain with it (typed, or a button's) is named.
    const [address] = bySymbol("pepe").id.split("-");
    expect(firstLine(await the.bot.say(`/convert 1m ${address ?? ""}-base`))).toMatch(/^1M PEPE \(base\) ≈ /u);
    expect(firstLine(await the.bot.say(`/convert 1m ${address ?? ""} bsc to wif`))).toMatch(/^1M PEPE \(bsc\) ≈ [\d.,]+ WIF \(solana\)/u);
  });

  it("tells apart two tokens of one symbol by their chains, in the amounts, prices and buttons", async () => {
    const bsc = the.world.sandbox.market.bySymbol("usdt").find((t) => t.chain === "bsc" && t.main);
    expect(bsc).toBeDefined();
    const reply = await the.bot.core.handleText(groupChat(), `/convert 100 usdt to ${bsc?.id ?? ""}`);
    expect(reply?.title).toMatch(/^100 USDT \(eth\) ≈ [\d.]+ USDT \(bsc\)$/u);
    const labels = reply?.blocks.flatMap((b) => (b.kind === "fields" ? b.fields.map((f) => f.label) : [])) ?? [];
    expect(labels).toEqual(["USDT (eth) price", "USDT (bsc) price", "Value in USD", "Data age"]);
    const cards = (reply?.actions ?? []).flat().filter((a) => a.kind === "command" && a.command === "token").map((a) => a.label);
    expect(cards).toEqual(["USDT (eth) card", "USDT (bsc) card"]);
  });

  it("shows a small dollar amount as typed, its zeros written out", async () => {
    expect(firstLine(await the.bot.say("/convert $0.000001 pepe"))).toMatch(/^\$0\.000001 ≈ /u);
    const pepe = bySymbol("pepe").id;
    const price = priceOf(await detailOf(pepe));
    const out = await the.bot.say(`/convert 100 ${pepe}`);
    expect(firstLine(out)).toBe(`100 PEPE (eth) ≈ ${formatPrice(100 * price)}`);
  });

  it("echoes markup typed as a token as it was typed", async () => {
    expect((await the.bot.say("/convert 1m <b>x</b>")).trim()).toBe(`⚠ No token matches "<b>x</b>".`);
  });
});

describe("/convert price impact", () => {
  it("estimates the impact of selling over 1 % of the main pair's liquidity by the constant-product formula", async () => {
    const thin = thinToken();
    const warm = await detailOf(thin.id);
    const pair = mainPair(warm);
    const liquidity = Number(pairLiquidity(pair));
    const price = priceOf(warm);
    // A tenth of the pool's liquidity: well past the 1 % mark.
    const amount = Math.round((liquidity * 0.1) / price);
    const out = await the.bot.say(`/convert ${amount} ${thin.id}`);
    const own = pair.token0_address?.toLowerCase() === thin.address.toLowerCase() ? pair.reserve0 : pair.reserve1;
    const expected = amount / (Number(own) + amount);
    expect(constantProductImpact(amount, Number(own))).toBe(expected);
    expect(out).toContain(`Estimated price impact selling ${thin.symbol}`);
    expect(out).toContain(`about ${formatRatio(expected)} (constant-product estimate`);
  });

  it("estimates the impact of buying from the other side's reserve", async () => {
    const thin = thinToken();
    const warm = await detailOf(thin.id);
    const pair = mainPair(warm);
    const usd = Math.round(Number(pairLiquidity(pair)) * 0.05);
    const out = await the.bot.say(`/convert $${usd} ${thin.id}`);
    const quoteSide = pair.token0_address?.toLowerCase() === thin.address.toLowerCase() ? 1 : 0;
    const reserve = Number(quoteSide === 0 ? pair.reserve0 : pair.reserve1);
    const quotePrice = Number(quoteSide === 0 ? pair.token0_price_usd : pair.token1_price_usd);
    const spent = usd / quotePrice;
    expect(out).toContain(`Estimated price impact buying ${thin.symbol}`);
    expect(out).toContain(`about ${formatRatio(spent / (reserve + spent))}`);
  });

  it("says nothing of impact at or below 1 % of the main pair's liquidity", async () => {
    const thin = thinToken();
    const pair = mainPair(await detailOf(thin.id));
    const usd = Math.floor(Number(pairLiquidity(pair)) * IMPACT_FROM_SHARE * 0.5);
    const out = await the.bot.say(`/convert $${usd} ${thin.id}`);
    expect(out).toContain("≈");
    expect(out).not.toContain("price impact");
  });
});

describe("/convert costs", () => {
  it("asks one token detail (5 units) on a miss, never a 100-unit batch, and nothing on a cache hit", async () => {
    const pepe = bySymbol("pepe").id;
    await the.bot.say(`/convert 1.5m ${pepe}`);
    const cold = the.world.sandbox.stats();
    expect(cold.byEndpoint["tokenDetail"]).toBe(1);
    expect(cold.byEndpoint["batchPrices"]).toBeUndefined();
    the.world.sandbox.resetStats();
    await the.bot.say([`/convert 3k ${pepe}`, `/convert $5 ${pepe}`]);
    expect(the.world.sandbox.stats().units).toBe(0);
  });

  it("asks two details for token to token: 10 units against a batch's 100", async () => {
    const [pepe, wif] = [bySymbol("pepe").id, bySymbol("wif").id];
    await the.bot.say(`/convert 2k ${pepe} to ${wif}`);
    const stats = the.world.sandbox.stats();
    expect(stats.byEndpoint["tokenDetail"]).toBe(2);
    expect(stats.byEndpoint["batchPrices"]).toBeUndefined();
  });
});

describe("/convert bad input gets one sentence", () => {
  it.each([
    ["/convert pepe", `"pepe" is not an amount; write it like 100, 0.25, 2k, 1.5m or $100, e.g. /convert 1.5m pepe.`],
    ["/convert 100", "Which token? e.g. /convert 1.5m pepe or /convert $100 pepe."],
    ["/convert -5 pepe", `An amount to convert must be more than zero; "-5" is negative.`],
    ["/convert 0 pepe", "An amount to convert must be more than zero."],
    ["/convert $-5 pepe", `An amount to convert must be more than zero; "$-5" is negative.`],
    ["/convert 99999999t pepe", `"99999999t" is more than I convert: at most 1,000T (10^15).`],
    ["/convert 5 pepe to", `Convert into what? Name a token or usd after "to", e.g. /convert 2k pepe to wif.`],
    ["/convert $5 pepe to wif", "A $ amount converts into one token: /convert $100 pepe; for token to token write /convert 2k pepe to wif."],
    ["/convert 5 usd", "Which token? e.g. /convert 1.5m pepe or /convert $100 pepe."],
  ])("%s", async (line, sentence) => {
    const out = await the.bot.say(line);
    expect(out.trim()).toBe(`⚠ ${sentence}`);
    expect(the.world.sandbox.stats().total).toBe(0);
  });

  it("names an unknown token", async () => {
    const out = await the.bot.say("/convert 10 zzzzqqq");
    expect(out.trim()).toBe(`⚠ No token matches "zzzzqqq".`);
  });

  it("says so when both sides are the same token", async () => {
    const out = await the.bot.say("/convert 100 pepe to pepe");
    expect(out.trim()).toBe("⚠ Both sides are PEPE: convert it into another token or usd, e.g. /convert 2k pepe to wif.");
  });

  it("answers an unknown side only once the other side's lookup has ended", async () => {
    the.world.sandbox.resetStats();
    await the.bot.say("/convert 100 zzzzqqq to wif");
    const asked = the.world.sandbox.stats().total;
    // Nothing of the command is still in flight when it has answered.
    await new Promise((r) => setImmediate(r));
    expect(the.world.sandbox.stats().total).toBe(asked);
    expect(asked).toBeGreaterThan(1);
  });

  it("says a token without a price cannot be converted", async () => {
    const noMarket = HOSTILE_TOKENS.find((t) => t.symbol === "NOMKT");
    const out = await the.bot.say(`/convert 10 ${noMarket?.id ?? ""}`);
    expect(out.trim()).toBe("⚠ NOMKT has no current price on the market service, so I can't convert it.");
  });
});
