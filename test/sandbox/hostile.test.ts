import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { HOSTILE_TOKENS, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { TIME, dataOf, expectRecord, v1, v2 } from "./helpers.js";

describe("hostile tokens", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME, tokenCount: 300 });
  });
  afterAll(() => sb.close());

  it("lists every hostility the issue names in one table", () => {
    const all = JSON.stringify(HOSTILE_TOKENS);
    for (const needle of ["<script>", "**Bold**", "@everyone", "@here", "<@&123>", "\u202e", "\u200b", "javascript:", "1e400", '"-0"', "0.000000000000001234", "-4200000.5", "NaN", "Infinity"]) {
      expect(all, needle).toContain(needle);
    }
    expect(HOSTILE_TOKENS.some((h) => h.name.length === 10_000)).toBe(true);
    expect(HOSTILE_TOKENS.some((h) => h.name === "" && h.symbol === "")).toBe(true);
    expect(HOSTILE_TOKENS.some((h) => /\d{80}/.test(JSON.stringify(h.fields)))).toBe(true);
  });

  it("serves each hostile token's values in v2 detail and the v1 record, with the spec's types", async () => {
    for (const h of HOSTILE_TOKENS) {
      const d = expectRecord(S.tokenDetail, dataOf(await v2(sb, `/v2/tokens/${encodeURIComponent(h.id)}`)));
      expect(d.token.name, h.hostility).toBe(h.name);
      expect(d.token.symbol).toBe(h.symbol);
      for (const [field, value] of Object.entries(h.fields)) if (field in d.token) expect((d.token as Record<string, unknown>)[field], field).toBe(value);
      for (const field of Object.keys(h.quirkFields ?? {})) if (field in d.token) expect((d.token as Record<string, unknown>)[field], field).not.toMatch(/NaN|Infinity/);
      const rec = expectRecord(S.tokenV1, dataOf(await v1(sb, `/api/v1/tokens/${encodeURIComponent(h.id)}`)));
      expect(rec.name).toBe(h.name);
      if (h.appendix) expect(JSON.parse(d.token.appendix ?? "{}")).toEqual(h.appendix);
    }
  });

  it("prices the tiny token exactly and every price field of the no-market token as an empty string", async () => {
    const tiny = HOSTILE_TOKENS.find((h) => h.fixedPrice === 0.000000000000001234);
    const d = S.tokenDetail.parse(dataOf(await v2(sb, `/v2/tokens/${tiny?.id}`)));
    expect(d.token.current_price_usd).toBe("0.000000000000001234");
    const none = HOSTILE_TOKENS.find((h) => h.noMarket);
    const n = S.tokenDetail.parse(dataOf(await v2(sb, `/v2/tokens/${none?.id}`)));
    expect(n.pairs).toEqual([]);
    expect(n.token).toMatchObject({ current_price_usd: "", market_cap: "", price_change_24h: "" });
    expect(S.kline.parse(dataOf(await v2(sb, `/v2/klines/token/${none?.id}?interval=1`))).points).toEqual([]);
  });

  it("serves NaN and Infinity only in quirks mode", async () => {
    const nan = HOSTILE_TOKENS.find((h) => h.quirkFields);
    const quirky = await startSandbox({ time: TIME, tokenCount: 300, quirks: true });
    const d = (dataOf(await v2(quirky, `/v2/tokens/${nan?.id}`)) as { token: Record<string, unknown> }).token;
    await quirky.close();
    expect(d.current_price_usd).toBe("NaN");
    expect(d.market_cap).toBe("Infinity");
  });
});
