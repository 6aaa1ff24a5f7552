import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { NOW, dataOf, ordinary, v2 } from "./helpers.js";

describe("swaps a test places on a pair", () => {
  let sb: Sandbox;
  let clock = NOW * 1000;
  let token: SandboxToken;
  let plain: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ now: () => clock });
    plain = await startSandbox({ now: () => clock });
    token = ordinary(sb, "base");
  });
  afterAll(async () => {
    await sb.close();
    await plain.close();
  });

  const txs = async (box: Sandbox, pairId: string, query: string): Promise<S.SwapTx[]> =>
    S.swapTxs.parse(dataOf(await v2(box, `/v2/txs/${pairId}?${query}`))).txs;

  it("serves exactly what an untouched sandbox serves until something is placed", async () => {
    const pair = token.pairs[0]?.id ?? "";
    expect(await txs(sb, pair, `from_time=${NOW - 600}&limit=300&sort=desc`)).toEqual(await txs(plain, pair, `from_time=${NOW - 600}&limit=300&sort=desc`));
  });

  it("gives a placed swap's trader its chain's address format unless the test names one", async () => {
    for (const [chain, format] of [["solana", /^[1-9A-HJ-NP-Za-km-z]{43,44}$/], ["tron", /^T[1-9A-HJ-NP-Za-km-z]{33}$/], ["base", /^0x[0-9a-f]{40}$/]] as const) {
      const pair = ordinary(sb, chain).pairs[0]?.id ?? "";
      sb.placeSwaps(pair, [{ time: NOW - 3, side: "buy", amountUsd: 75 }]);
      const placed = (await txs(sb, pair, `from_time=${NOW - 4}&to_time=${NOW - 2}&limit=300`)).filter((t) => t.tx_time === NOW - 3 && t.amount_usd === "75");
      expect(placed.map((t) => t.wallet_address).every((w) => format.test(w ?? "")), chain).toBe(true);
      expect(placed.length, chain).toBeGreaterThan(0);
    }
  });

  it("serves a quiet pair's placed swaps and nothing else, newest first with sort=desc", async () => {
    const pair = token.pairs[1]?.id ?? "";
    sb.quietPair(pair);
    expect(await txs(sb, pair, `from_time=${NOW - 86_400}&limit=300`)).toEqual([]);
    sb.placeSwaps(pair, [
      { time: NOW - 30, side: "buy", amountUsd: 120 },
      { time: NOW - 20, side: "sell", amountUsd: 80 },
      { time: NOW - 10, side: "buy", amountUsd: null },
      { time: NOW - 5, side: "buy", amountUsd: "NaN", wallet: "<b>@everyone</b>" },
    ]);
    const got = await txs(sb, pair, `from_time=${NOW - 60}&limit=300&sort=desc`);
    expect(got.map((t) => t.tx_time)).toEqual([NOW - 5, NOW - 10, NOW - 20, NOW - 30]);
    expect(got[3]).toMatchObject({ amount_usd: "120", to_token_symbol: token.symbol, chain: token.chain });
    expect(got[2]).toMatchObject({ from_token_symbol: token.symbol });
    expect(got[1]?.amount_usd).toBeUndefined();
    expect(got[0]).toMatchObject({ amount_usd: "NaN", wallet_address: "<b>@everyone</b>" });
    expect(new Set(got.map((t) => t.tx_hash)).size).toBe(4);
  });

  it("serves a swap indexed late only from its indexedAt, with its own earlier tx_time", async () => {
    const pair = token.pairs[1]?.id ?? "";
    sb.placeSwaps(pair, [{ time: NOW - 40, side: "buy", amountUsd: 999, indexedAt: NOW + 30 }]);
    const before = await txs(sb, pair, `from_time=${NOW - 45}&to_time=${NOW - 35}`);
    expect(before).toEqual([]);
    clock = (NOW + 30) * 1000;
    const after = await txs(sb, pair, `from_time=${NOW - 45}&to_time=${NOW - 35}`);
    expect(after.map((t) => [t.tx_time, t.amount_usd])).toEqual([[NOW - 40, "999"]]);
  });

  it("keeps the latest ≤ limit of a busy second's placed swaps and the rest a page back by to_time", async () => {
    const pair = token.pairs[1]?.id ?? "";
    sb.placeSwaps(pair, Array.from({ length: 150 }, (_, i) => ({ time: NOW + 10, side: "buy" as const, amountUsd: 100 + i })));
    const first = await txs(sb, pair, `from_time=${NOW + 10}&to_time=${NOW + 10}&limit=100&sort=desc`);
    expect(first).toHaveLength(100);
    const all = await txs(sb, pair, `from_time=${NOW + 10}&to_time=${NOW + 10}&limit=300&sort=desc`);
    expect(all).toHaveLength(150);
    expect(all.slice(0, 100)).toEqual(first);
  });
});
