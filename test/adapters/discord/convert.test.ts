/**
 * /convert in Discord: the slash command's named options through the real adapter and the
 * fake, on the real core and the sandbox, each figure checked against the service's answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatExactAmount, formatExactUsd, formatPrice, formatRatio } from "../../../src/core/format/index.js";
import type { Sandbox } from "../../../src/sandbox/index.js";
import { OptionType, type Settled } from "../../fakes/discord-api.js";
import { expectedImpact, serviceAnswer, thinToken } from "../convert-figures.js";
import { T0 } from "../real-core.js";
import { message } from "./chart-harness.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness;
let sandbox: Sandbox;
let n = 0n;

beforeAll(async () => {
  h = await startHarness({ adapter: { ackWithinMs: 2000 } });
  sandbox = h.real!.sandbox;
});
afterAll(async () => {
  await h.close();
});
afterEach(() => {
  expect(h.fake.violations).toEqual([]);
});

const token = (symbol: string) => sandbox.market.bySymbol(symbol)[0]!;

interface Shown {
  title: string;
  fields: Map<string, string>;
  description: string;
}

/** How /convert with these options settles, asked from a user and channel of its own. */
function ask(options: Record<string, string>): Promise<Settled> {
  n += 1n;
  return h.fake
    .chatInput({
      name: "convert",
      options: Object.entries(options).map(([name, value]) => ({ name, type: OptionType.string, value })),
      user: { id: String(720000000000000000n + n), username: `c${n}` },
      channelId: String(820000000000000000n + n),
    })
    .settled();
}

/** What the answer's embed shows, markdown escapes undone. */
async function convert(options: Record<string, string>): Promise<Shown> {
  const embed = message(await ask(options)).embeds[0] as { title?: string; description?: string; fields?: { name: string; value: string }[] };
  const plain = (s: string | undefined) => (s ?? "").replace(/\\(.)/g, "$1");
  return {
    title: plain(embed.title),
    fields: new Map((embed.fields ?? []).map((f) => [plain(f.name), plain(f.value)])),
    description: plain(embed.description),
  };
}

describe("/convert in Discord", () => {
  it("converts a token amount to dollars at the service's price, as a mid price", async () => {
    const pepe = token("pepe");
    const shown = await convert({ amount: "1.5m", token: pepe.id });
    const { price } = await serviceAnswer(sandbox, pepe);
    expect(shown.title).toBe(`1.5M PEPE (${pepe.chain}) ≈ ${formatExactUsd(1.5e6 * price)}`);
    expect(shown.fields.get("PEPE price")).toBe(formatPrice(price));
    // In seconds, as the footer says its data's age: never "just now" beside "data 29s old".
    expect(shown.fields.get("Data age")).toMatch(/^\d+s$/);
    expect(shown.description).toContain("Mid price, not a quote: a trade gets less after fees and slippage.");
    expect(shown.description).not.toContain("price impact");
  });

  it("converts dollars to tokens with the $ in the amount option", async () => {
    const pepe = token("pepe");
    const shown = await convert({ amount: "$100", token: pepe.id });
    const { price } = await serviceAnswer(sandbox, pepe);
    expect(shown.title).toBe(`$100 ≈ ${formatExactAmount(100 / price)} PEPE (${pepe.chain})`);
    expect(shown.description).toContain("Mid price, not a quote");
  });

  it("converts token to token through the to option, at both USD prices", async () => {
    const [pepe, wif] = [token("pepe"), token("wif")];
    const shown = await convert({ amount: "2k", token: pepe.id, to: wif.id });
    const [p, w] = [(await serviceAnswer(sandbox, pepe)).price, (await serviceAnswer(sandbox, wif)).price];
    expect(shown.title).toBe(`2,000 PEPE (${pepe.chain}) ≈ ${formatExactAmount((2000 * p) / w)} WIF (${wif.chain})`);
    expect(shown.fields.get("PEPE price")).toBe(formatPrice(p));
    expect(shown.fields.get("WIF price")).toBe(formatPrice(w));
    expect(shown.fields.get("Value in USD")).toBe(formatExactUsd(2000 * p));
  });

  it("reads a whole `/convert 2k pepe to wif` typed into the amount option as the typed command", async () => {
    const [pepe, wif] = [token("pepe"), token("wif")];
    const whole = await convert({ amount: `2k ${pepe.id} to ${wif.id}` });
    const split = await convert({ amount: "2k", token: pepe.id, to: wif.id });
    expect(whole.title).toBe(split.title);
    expect(whole.title).toMatch(/^2,000 PEPE \(eth\) ≈ .+ WIF \(solana\)$/);
    expect((await convert({ amount: `$100 ${pepe.id}` })).title).toMatch(/^\$100 ≈ .+ PEPE \(eth\)$/);
  });

  it("labels an estimate of the price impact, by the constant-product formula, above 1 % of the main pair's liquidity", async () => {
    const thin = thinToken(sandbox, T0);
    const before = await serviceAnswer(sandbox, thin);
    // Dollars buying a twentieth of the pool's liquidity: the other side's reserve takes them.
    const usd = Math.round(before.liquidity * 0.05);
    const shown = await convert({ amount: `$${usd}`, token: thin.id });
    const spent = usd / before.otherPrice;
    expect(shown.description).toContain(`Estimated price impact buying ${thin.symbol} from its main pair`);
    expect(shown.description).toContain(`: about ${formatRatio(expectedImpact(spent, before.otherReserve))} (constant-product estimate from the pair's reserves, before fees).`);
  });

  it("answers an unknown token with one sentence, to the asker alone", async () => {
    const settled = await ask({ amount: "10", token: "zzzzqqq" });
    expect(settled.kind === "message" && settled.ephemeral).toBe(true);
    expect(message(settled).embeds).toEqual([expect.objectContaining({ title: 'No token matches "zzzzqqq".' })]);
    expect(message(settled).embeds[0]).not.toHaveProperty("description");
  });
});
