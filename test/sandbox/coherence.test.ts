import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { KLINE_INTERVALS_V2 } from "../../src/market/limits.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { NOW, TIME, dataOf, ordinary, prices, v1, v2 } from "./helpers.js";

describe("the market's views agree with each other", () => {
  let sb: Sandbox;
  let token: SandboxToken;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME });
    token = ordinary(sb, "base");
  });
  afterAll(() => sb.close());

  const detail = async (id: string): Promise<S.TokenDetail> => S.tokenDetail.parse(dataOf(await v2(sb, `/v2/tokens/${id}`)));

  it("closes the last K-line point of every interval at the current price", async () => {
    const price = (await detail(token.id)).token.current_price_usd;
    for (const interval of KLINE_INTERVALS_V2) {
      const k = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=${interval}&limit=3`)));
      expect(k.points.at(-1)?.close, String(interval)).toBe(price);
    }
    const main = S.kline.parse(dataOf(await v2(sb, `/v2/klines/pair/${token.pairs[0]?.id}?interval=5&limit=3`)));
    expect(main.points.at(-1)?.close).toBe(price);
  });

  it("lists the latest buckets up to to_time, ascending, aligned and none before the first trade", async () => {
    // 1000 buckets of 5 minutes reach back further than this token's first trade.
    const young = sb.market.tokens.find((t) => !t.hostile && t.pairs.length > 0 && t.launchAt > NOW - 900 * 300 && t.launchAt < NOW - 3_600);
    if (!young) throw new Error("no token launched in the last three days");
    const k = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${young.id}?interval=5&limit=1000`)));
    const times = k.points.map((p) => p.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((t) => t % 300 === 0)).toBe(true);
    expect(times[0]).toBe(Math.floor(young.launchAt / 300) * 300);
    expect(k.points.length).toBe((Math.floor(NOW / 300) * 300 - (times[0] ?? 0)) / 300 + 1);
    const to = NOW - 7_200;
    const earlier = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=60&limit=4&to_time=${to}`)));
    expect(earlier.points.map((p) => p.time)).toEqual([3, 2, 1, 0].map((i) => Math.floor(to / 3_600) * 3_600 - i * 3_600));
  });

  it("keeps each point's high and low around its open and close, and chains close to the next open", async () => {
    const k = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=15&limit=200`)));
    for (const p of k.points) {
      expect(Number(p.high)).toBeGreaterThanOrEqual(Math.max(Number(p.open), Number(p.close)));
      expect(Number(p.low)).toBeLessThanOrEqual(Math.min(Number(p.open), Number(p.close)));
    }
    for (let i = 1; i < k.points.length; i++) expect(k.points[i]?.open).toBe(k.points[i - 1]?.close);
  });

  const klines = async (path: string): Promise<S.Kline["points"]> => S.kline.parse(dataOf(await v2(sb, path))).points;
  const num = (x: string | undefined): number => Number(x);

  it("gives each candle the highest high and lowest low of the smaller candles it spans", async () => {
    for (const [big, small] of [[60, 1], [240, 15], [1440, 60], [43200, 1440]] as const) {
      const size = big * 60;
      for (const p of await klines(`/v2/klines/token/${token.id}?interval=${big}&limit=3`)) {
        const subs = await klines(`/v2/klines/token/${token.id}?interval=${small}&limit=1000&from_time=${p.time}&to_time=${p.time + size - 1}`);
        expect(subs.length, `${big}/${small}`).toBe(Math.min(big / small, Math.floor((NOW - p.time) / (small * 60)) + 1));
        expect(p.high, `${big}/${small} at ${p.time}`).toBe(subs.reduce((m, x) => (num(x.high) > num(m) ? x.high : m), subs[0]?.high));
        expect(p.low, `${big}/${small} at ${p.time}`).toBe(subs.reduce((m, x) => (num(x.low) < num(m) ? x.low : m), subs[0]?.low));
      }
    }
  });

  it("gives the v1 24h high and low of the 1-minute candles of the last 24 hours", async () => {
    const from = NOW - 86_400;
    const recent = await klines(`/v2/klines/token/${token.id}?interval=1&limit=1000&from_time=${from}`);
    const older = await klines(`/v2/klines/token/${token.id}?interval=1&limit=1000&from_time=${from}&to_time=${(recent[0]?.time ?? 0) - 60}`);
    const minutes = [...older, ...recent];
    expect(minutes[0]?.time).toBe(from);
    const v1Token = S.tokenV1.parse(dataOf(await v1(sb, `/api/v1/tokens/${token.id}`)));
    expect(num(v1Token.high_24h)).toBe(Math.max(...minutes.map((p) => num(p.high))));
    expect(num(v1Token.low_24h)).toBe(Math.min(...minutes.map((p) => num(p.low))));
  });

  it("agrees on the 1h change between the token record and the K-line an hour back", async () => {
    const d = await detail(token.id);
    const k = S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=1&limit=61`)));
    const hourAgo = k.points.find((p) => p.time === NOW - 3_600);
    const change = (Number(d.token.current_price_usd) / Number(hourAgo?.open) - 1) * 100;
    expect(Number(d.token.token_price_change_1h)).toBeCloseTo(change, 1);
  });

  it("adds up a minute's swaps to that minute's K-line volume on the pair", async () => {
    const pair = token.pairs[0];
    const minute = NOW - 600;
    const txs = S.swapTxs.parse(dataOf(await v2(sb, `/v2/txs/${pair?.id}?from_time=${minute}&to_time=${minute + 59}&limit=300`)));
    expect(txs.txs.length).toBeGreaterThan(0);
    const sum = txs.txs.reduce((s, t) => s + Number(t.amount_usd), 0);
    const k = S.kline.parse(dataOf(await v2(sb, `/v2/klines/pair/${pair?.id}?interval=1&limit=1&to_time=${minute}`)));
    expect(k.points[0]?.time).toBe(minute);
    expect(sum).toBeCloseTo(Number(k.points[0]?.volume), 2);
  });

  it("lists as many swaps over the token's pairs in the last 5 minutes as its 5m buy and sell counts add up to", async () => {
    // Busy enough to trade every few seconds, quiet enough to list within one page per pair.
    const busy = sb.market.tokens.filter((t) => !t.hostile && t.pairs.length > 1 && t.launchAt < NOW - 86_400 && (t.volumeRate / t.tradeSize) * 300 > 30 && (t.volumeRate / t.tradeSize) * 300 < 200);
    expect(busy.length).toBeGreaterThan(2);
    for (const t of [token, ...busy.slice(0, 3)]) {
      const record = (await detail(t?.id ?? "")).token;
      let listed = 0;
      for (const p of t?.pairs ?? []) listed += S.swapTxs.parse(dataOf(await v2(sb, `/v2/txs/${p.id}?from_time=${NOW - 299}&to_time=${NOW}&limit=300`))).txs.length;
      expect(listed, t?.id).toBe((record.token_buy_tx_count_5m ?? 0) + (record.token_sell_tx_count_5m ?? 0));
      expect(listed, t?.id).toBeLessThan(300);
    }
  });

  it("keeps volumes growing with the window: 5m ≤ 1h ≤ 4h ≤ 24h", async () => {
    const t = (await detail(token.id)).token;
    const v = ["5m", "1h", "4h", "24h"].map((w) => Number(t[`token_tx_volume_usd_${w}` as "token_tx_volume_usd_5m"]));
    expect(v).toEqual([...v].sort((a, b) => a - b));
    expect(t.tx_volume_u_24h).toBe(t.token_tx_volume_usd_24h);
  });

  it("gives the same price strings in a batch as in the detail of the same second", async () => {
    const ids = sb.market.tokens.filter((t) => t.chain === "eth" && t.liquidity >= 1_000).slice(0, 40).map((t) => t.id);
    const batch = S.priceMap.parse(dataOf(await prices(sb, { token_ids: ids })));
    expect(Object.keys(batch)).toHaveLength(40);
    for (const id of ids.slice(0, 15)) {
      const d = (await detail(id)).token;
      expect(batch[id]).toMatchObject({ current_price_usd: d.current_price_usd, price_change_24h: d.price_change_24h, tvl: d.tvl, tx_volume_u_24h: d.tx_volume_u_24h });
    }
  });

  it("keeps holder ratios summing to at most 1, largest first, and agrees with the risk report", async () => {
    for (const t of sb.market.tokens.filter((x) => !x.holdersHidden && x.chain === "eth").slice(0, 30)) {
      const holders = S.holder.array().parse(dataOf(await v2(sb, `/v2/tokens/top100/${t.id}`)));
      const ratios = holders.map((h) => h.balance_ratio ?? 0);
      expect(ratios.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
      expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
      const report = S.riskReport.parse(dataOf(await v2(sb, `/v2/contracts/${t.id}`)));
      if (report.err_code === "0" && holders[0]) expect(report.token_holders_rank?.[0]?.address).toBe(holders[0].address);
    }
  });

  it("sorts trending by 1h volume, gainers by rise, losers by fall and new tokens newest first", async () => {
    const trending = S.trendingPage.parse(dataOf(await v2(sb, "/v2/tokens/trending?chain=eth&page_size=100")));
    const vol = trending.tokens.map((t) => Number(t.token_tx_volume_usd_1h));
    expect(vol).toEqual([...vol].sort((a, b) => b - a));
    const gain = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/ranks?topic=gainer&limit=100"))).map((t) => Number(t.price_change_24h));
    expect(gain.every((c) => c > 0)).toBe(true);
    expect(gain).toEqual([...gain].sort((a, b) => b - a));
    const lose = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/ranks?topic=loser&limit=100"))).map((t) => Number(t.price_change_24h));
    expect(lose.every((c) => c < 0)).toBe(true);
    expect(lose).toEqual([...lose].sort((a, b) => a - b));
    const fresh = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/ranks?topic=new"))).map((t) => t.launch_at ?? 0);
    expect(fresh.length).toBeGreaterThan(10);
    expect(fresh).toEqual([...fresh].sort((a, b) => b - a));
    expect(fresh.every((t) => t > NOW - 7 * 86_400)).toBe(true);
  });

  it("lists only the topic's chain or category in chain and category topics", async () => {
    const sol = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/ranks?topic=solana&limit=50")));
    expect(sol.every((t) => t.chain === "solana")).toBe(true);
    const meme = S.tokenV2.array().parse(dataOf(await v2(sb, "/v2/ranks?topic=meme&limit=50")));
    for (const t of meme) expect(sb.market.token(`${t.token}-${t.chain}`)?.tags).toContain("meme");
  });

  it("risk reports span clean, taxed, honeypot, mintable, proxy, owned, unlocked, unchecked and missing", async () => {
    const seen = new Map<string, S.RiskReport>();
    for (const t of sb.market.tokens) if (!seen.has(t.risk) && t.pairs.length > 0) seen.set(t.risk, S.riskReport.parse(dataOf(await v2(sb, `/v2/contracts/${t.id}`))));
    expect(seen.get("clean")).toMatchObject({ is_honeypot: 0, sell_tax: 0, is_proxy: "0", has_mint_method: 0 });
    expect(seen.get("highTax")?.sell_tax).toBeGreaterThan(0.1);
    expect(seen.get("honeypot")).toMatchObject({ is_honeypot: 1, cannot_sell_all: "1" });
    expect(seen.get("mintable")?.has_mint_method).toBe(1);
    expect(seen.get("proxy")?.is_proxy).toBe("1");
    expect(seen.get("ownerNotRenounced")?.has_owner_removed_risk).toBe(1);
    expect(seen.get("lpUnlocked")?.pair_lock_percent).toBe(0);
    expect(seen.get("concentrated")).toMatchObject({ creator_percent: "0.69", risk_score: 66, pair_lock_percent: 0 });
    expect(seen.get("unchecked")?.is_honeypot).toBe(-1);
    expect(seen.get("noReport")).toMatchObject({ err_code: "1", err_msg: "token not found" });
  });

  it("offers several PEPE tokens on eth with very different liquidity, the real one most liquid", () => {
    const pepes = sb.market.bySymbol("pepe").filter((t) => t.chain === "eth");
    expect(pepes.length).toBeGreaterThanOrEqual(4);
    expect(pepes[0]?.listed).toBe(true);
    expect((pepes[0]?.liquidity ?? 0) / (pepes[1]?.liquidity ?? 1)).toBeGreaterThan(100);
    expect(new Set(sb.market.bySymbol("pepe").map((t) => t.chain)).size).toBeGreaterThanOrEqual(4);
  });
});

describe("a running minute's swaps as the clock moves through it", () => {
  let sb: Sandbox;
  let clock = TIME;
  let pair: SandboxToken["pairs"][number];
  beforeAll(async () => {
    sb = await startSandbox({ now: () => clock });
    // Busy enough to trade several times between two polls a few seconds apart, quiet enough for one page.
    const busy = sb.market.pairs.find((p) => !p.target.hostile && p.target.launchAt < NOW - 86_400 && p.createdAt < NOW - 86_400 && (p.target.volumeRate / p.target.tradeSize) * p.share * 60 > 20 && (p.target.volumeRate / p.target.tradeSize) * p.share * 60 < 80);
    if (!busy) throw new Error("no pair trading 20-80 times a minute");
    pair = busy;
  });
  afterAll(() => sb.close());

  const txs = async (): Promise<S.SwapTx[]> => S.swapTxs.parse(dataOf(await v2(sb, `/v2/txs/${pair.id}?from_time=${NOW - 60}&limit=300&sort=desc`))).txs;
  const minuteVolume = async (): Promise<number> => Number(S.kline.parse(dataOf(await v2(sb, `/v2/klines/pair/${pair.id}?interval=1&limit=1&to_time=${NOW}`))).points[0]?.volume);
  const madeInMinute = (list: S.SwapTx[]): S.SwapTx[] => list.filter((t) => (t.tx_time ?? 0) >= NOW);
  const sum = (list: S.SwapTx[]): number => list.reduce((s, t) => s + Number(t.amount_usd), 0);

  it("serves every trade of a poll again with identical fields a few seconds later, and closes the minute on the same trades", async () => {
    clock = TIME + 20_000;
    const first = await txs();
    expect(madeInMinute(first).length).toBeGreaterThan(0);
    expect(await minuteVolume()).toBeCloseTo(sum(madeInMinute(first)), 4);

    clock = TIME + 27_000;
    const second = await txs();
    expect(madeInMinute(second).length).toBeGreaterThan(madeInMinute(first).length);
    const byHash = new Map(second.map((t) => [t.tx_hash, t]));
    for (const t of first) expect(byHash.get(t.tx_hash), t.tx_hash).toEqual(t);
    expect(await minuteVolume()).toBeCloseTo(sum(madeInMinute(second)), 4);

    clock = TIME + 75_000;
    const closed = (await txs()).filter((t) => (t.tx_time ?? Infinity) < NOW + 60);
    const after = new Map(closed.map((t) => [t.tx_hash, t]));
    for (const t of second) expect(after.get(t.tx_hash), t.tx_hash).toEqual(t);
    expect(await minuteVolume()).toBeCloseTo(sum(madeInMinute(closed)), 4);
  });
});
