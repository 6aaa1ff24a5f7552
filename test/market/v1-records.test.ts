import { describe, expect, it } from "vitest";
import { v1ContractReport, v1Liquidity, v1Pairs } from "../../src/market/v1-records.js";

describe("v1 records the spec leaves unshown, read in one place", () => {
  it("reads a liquidity record's time from tx_time, else time, and its size and wallet by the v2 names first", () => {
    expect(v1Liquidity([
      { tx_time: 1_795_000_000, time: 1, type: "add", amount_usd: "1200.5", amount: "9", wallet_address: "0xa", sender_address: "0xb" },
      { time: "1795000100", type: "remove", amount: 30, sender_address: "0xc" },
    ])).toEqual([
      { time: "1795000000", kind: "add", amountUsd: "1200.5", wallet: "0xa" },
      { time: "1795000100", kind: "remove", amountUsd: "30", wallet: "0xc" },
    ]);
  });

  it("finds the list under a known key or takes the one object", () => {
    expect(v1Pairs({ list: [{ pair: "0x1", amm: "uniswapv2" }, "garbage", null] })).toEqual([{ pair: "0x1", amm: "uniswapv2" }]);
    expect(v1Pairs({ pair: "0x2", volume_u: 5 })).toEqual([{ pair: "0x2", volumeUsd: "5" }]);
  });

  it("reads a pair's 24h change from price_change_24h, else price_change", () => {
    expect(v1Pairs([{ price_change: "-3.5" }, { price_change_24h: 2, price_change: 9 }]).map((p) => p.change24h)).toEqual(["-3.5", "2"]);
  });

  it("leaves a field of another type undefined instead of failing the list", () => {
    const [p] = v1Pairs([{ pair: { nested: true }, amm: ["x"], volume_u: Number.NaN, token0_symbol: "PEPE" }]);
    expect(p).toEqual({ token0Symbol: "PEPE" });
  });

  it("reads the contract check as a risk report, or undefined when it is not one", () => {
    expect(v1ContractReport([{ token: "0xabc", is_honeypot: 0 }])).toMatchObject({ token: "0xabc" });
    expect(v1ContractReport({ token: 42 })).toBeUndefined();
  });
});
