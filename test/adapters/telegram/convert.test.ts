/**
 * /convert in Telegram: the real core on the sandbox behind the real adapter and the fake Bot
 * API, each figure checked against the service's own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatExactAmount, formatExactUsd, formatPrice, formatRatio } from "../../../src/core/format/index.js";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import { expectedImpact, serviceAnswer, thinToken } from "../convert-figures.js";
import { T0 } from "../real-core.js";
import { startSandboxHarness, type SandboxHarness } from "./sandbox-harness.js";

let h: SandboxHarness;

beforeAll(async () => {
  h = await startSandboxHarness();
});
afterAll(async () => {
  await h.close();
});

const token = (symbol: string) => h.sandbox.market.bySymbol(symbol)[0]!;

/** The lines of the one message the bot answers `text` with, in a private chat of its own. */
async function answer(text: string): Promise<string[]> {
  const ask = h.fake.sendText(privateChat(fakeUser()), text);
  const sent = await h.fake.waitForSent((s) => s.replyTo === ask.message_id, { timeoutMs: 20_000 });
  expect(h.fake.repliesTo(ask)).toHaveLength(1);
  return sent.text.split("\n");
}

describe("/convert in Telegram", () => {
  it("converts a token amount to dollars at the service's price, as a mid price", async () => {
    const pepe = token("pepe");
    const lines = await answer(`/convert 1.5m ${pepe.id}`);
    const { price } = await serviceAnswer(h.sandbox, pepe);
    expect(lines[0]).toBe(`1.5M PEPE (${pepe.chain}) ≈ ${formatExactUsd(1.5e6 * price)}`);
    expect(lines).toContain(`PEPE price: ${formatPrice(price)}`);
    expect(lines.some((l) => /^Data age: \d+s$/.test(l))).toBe(true);
    expect(lines).toContain("Mid price, not a quote: a trade gets less after fees and slippage.");
    expect(lines.join("\n")).not.toContain("price impact");
  });

  it("converts dollars to tokens: /convert $100 pepe", async () => {
    const pepe = token("pepe");
    const lines = await answer(`/convert $100 ${pepe.id}`);
    const { price } = await serviceAnswer(h.sandbox, pepe);
    expect(lines[0]).toBe(`$100 ≈ ${formatExactAmount(100 / price)} PEPE (${pepe.chain})`);
    expect(lines).toContain("Mid price, not a quote: a trade gets less after fees and slippage.");
  });

  it("converts token to token through both USD prices and shows both unit prices", async () => {
    const [pepe, wif] = [token("pepe"), token("wif")];
    const lines = await answer(`/convert 2k ${pepe.id} to ${wif.id}`);
    const [p, w] = [(await serviceAnswer(h.sandbox, pepe)).price, (await serviceAnswer(h.sandbox, wif)).price];
    expect(lines[0]).toBe(`2,000 PEPE (${pepe.chain}) ≈ ${formatExactAmount((2000 * p) / w)} WIF (${wif.chain})`);
    expect(lines).toContain(`PEPE price: ${formatPrice(p)}`);
    expect(lines).toContain(`WIF price: ${formatPrice(w)}`);
    expect(lines).toContain(`Value in USD: ${formatExactUsd(2000 * p)}`);
  });

  it("labels an estimate of the price impact, by the constant-product formula, above 1 % of the main pair's liquidity", async () => {
    const thin = thinToken(h.sandbox, T0);
    const before = await serviceAnswer(h.sandbox, thin);
    // A tenth of the pool's liquidity: well past the 1 % mark.
    const amount = Math.round((before.liquidity * 0.1) / before.price);
    const lines = await answer(`/convert ${amount} ${thin.id}`);
    const impact = lines.find((l) => l.startsWith(`Estimated price impact selling ${thin.symbol} into its main pair`));
    expect(impact).toContain(`: about ${formatRatio(expectedImpact(amount, before.ownReserve))} (constant-product estimate from the pair's reserves, before fees).`);
    expect(lines).toContain("Mid price, not a quote: a trade gets less after fees and slippage.");
  });

  it("answers a bad amount with one sentence", async () => {
    expect(await answer(`/convert -5 ${token("pepe").id}`)).toEqual([`⚠️ An amount to convert must be more than zero; "-5" is negative.`]);
  });
});
