import { describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { TIME, dataOf, prices, v2 } from "./helpers.js";

async function bodies(sb: Sandbox): Promise<string[]> {
  const pepe = sb.market.bySymbol("PEPE")[0];
  const paths = [
    `/v2/tokens/${pepe?.id}`, "/v2/tokens?keyword=inu&limit=300", "/v2/ranks?topic=hot", "/v2/tokens/trending?chain=solana&page_size=100",
    `/v2/klines/token/${pepe?.id}?interval=60&limit=1000`, `/v2/txs/${pepe?.pairs[0]?.id}?limit=300`, `/v2/tokens/top100/${pepe?.id}`,
    `/v2/contracts/${pepe?.id}`,
  ];
  const out = [];
  for (const p of paths) out.push((await v2(sb, p)).text);
  out.push((await prices(sb, { token_ids: sb.market.tokens.slice(0, 200).map((t) => t.id) })).text);
  return out;
}

describe("determinism", () => {
  it("answers byte for byte the same with the same seed and time", async () => {
    const a = await startSandbox({ seed: 42, time: TIME });
    const b = await startSandbox({ seed: 42, time: TIME });
    const [x, y] = await Promise.all([bodies(a), bodies(b)]);
    await Promise.all([a.close(), b.close()]);
    expect(x.length).toBe(9);
    x.forEach((body, i) => expect(body === y[i], `answer ${i}`).toBe(true));
  });

  it("serves the same bytes a month on whether it ran all along or started then, with new launches listed", async () => {
    let now = TIME;
    const running = await startSandbox({ seed: 9, now: () => now, tokenCount: 300 });
    dataOf(await v2(running, "/v2/ranks?topic=new"));
    now = TIME + 30 * 86_400_000;
    const started = await startSandbox({ seed: 9, time: now, tokenCount: 300 });
    const [x, y] = await Promise.all([bodies(running), bodies(started)]);
    const fresh = [running, started].map(async (sb) => (dataOf(await v2(sb, "/v2/ranks?topic=new&limit=100")) as { token: string; launch_at: number }[]));
    const [newA, newB] = await Promise.all(fresh);
    await Promise.all([running.close(), started.close()]);
    x.forEach((body, i) => expect(body === y[i], `answer ${i}`).toBe(true));
    expect(newA).toEqual(newB);
    expect(newA?.length).toBeGreaterThan(10);
    expect(newA?.every((t) => t.launch_at > now / 1000 - 7 * 86_400 && t.launch_at <= now / 1000)).toBe(true);
  });

  it("builds a different market from another seed, keeping the named and hostile tokens' ids", async () => {
    const a = await startSandbox({ seed: 1, time: TIME, tokenCount: 500 });
    const b = await startSandbox({ seed: 2, time: TIME, tokenCount: 500 });
    const pepeA = a.market.bySymbol("PEPE")[0];
    const pepeB = b.market.bySymbol("PEPE")[0];
    expect(pepeA?.id).toBe(pepeB?.id);
    expect(a.market.hostile.map((h) => h.id)).toEqual(b.market.hostile.map((h) => h.id));
    const priceA = (dataOf(await v2(a, `/v2/tokens/${pepeA?.id}`)) as { token: { current_price_usd: string } }).token.current_price_usd;
    const priceB = (dataOf(await v2(b, `/v2/tokens/${pepeB?.id}`)) as { token: { current_price_usd: string } }).token.current_price_usd;
    expect(priceA).not.toBe(priceB);
    expect(a.market.tokens.at(-1)?.id).not.toBe(b.market.tokens.at(-1)?.id);
    await Promise.all([a.close(), b.close()]);
  });

  it("moves prices with its injected clock and gives the same answer when the clock returns", async () => {
    let now = TIME;
    const sb = await startSandbox({ now: () => now, tokenCount: 300 });
    const id = sb.market.bySymbol("PEPE")[0]?.id;
    const read = async (): Promise<string> => (dataOf(await v2(sb, `/v2/tokens/${id}`)) as { token: { current_price_usd: string } }).token.current_price_usd;
    const first = await read();
    now += 10 * 60_000;
    const later = await read();
    now = TIME;
    const again = await read();
    await sb.close();
    expect(later).not.toBe(first);
    expect(again).toBe(first);
  });
});
