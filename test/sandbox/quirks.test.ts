import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as S from "../../src/market/schemas.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import { TIME, dataOf, ordinary, prices, specTypeErrors, v2 } from "./helpers.js";

describe("quirks mode", () => {
  let sb: Sandbox;
  let token: SandboxToken;
  beforeAll(async () => {
    sb = await startSandbox({ time: TIME, quirks: true });
    token = ordinary(sb, "eth");
  });
  afterAll(() => sb.close());

  it("sends numbers where decimal strings are specified, which the client's schemas still accept", async () => {
    const raw = dataOf(await v2(sb, `/v2/tokens/${token.id}`)) as { token: Record<string, unknown> };
    expect(typeof raw.token.current_price_usd).toBe("number");
    expect(S.tokenDetail.safeParse(raw).success).toBe(true);
    expect(specTypeErrors(S.tokenDetail, raw).length).toBeGreaterThan(0);
    const batch = dataOf(await prices(sb, { token_ids: [token.id] })) as Record<string, Record<string, unknown>>;
    expect(typeof batch[token.id]?.current_price_usd).toBe("number");
    expect(S.priceMap.safeParse(batch).success).toBe(true);
  });

  it("sends one K-line point more than asked, to_time in milliseconds and a high below the open once", async () => {
    const raw = dataOf(await v2(sb, `/v2/klines/token/${token.id}?interval=5&limit=10`)) as { points: { open: string; high: string }[]; to_time: number };
    expect(raw.points).toHaveLength(11);
    expect(raw.to_time).toBe(TIME);
    expect(Number(raw.points[0]?.high)).toBeLessThan(Number(raw.points[0]?.open));
    expect(S.kline.parse(raw).to_time).toBe(TIME / 1000);
  });

  it("repeats an identical row in Solana trending and leaves optional fields out", async () => {
    const raw = dataOf(await v2(sb, "/v2/tokens/trending?chain=solana&page_size=5")) as { tokens: Record<string, unknown>[] };
    expect(raw.tokens[1]).toEqual(raw.tokens[0]);
    expect(raw.tokens.some((t) => !("tvl" in t))).toBe(true);
    expect(S.trendingPage.safeParse(raw).success).toBe(true);
  });

  it("serves relative logo paths", async () => {
    const list = dataOf(await v2(sb, "/v2/tokens/main?chain=bsc")) as { logo_url: string }[];
    expect(list[0]?.logo_url).toMatch(/^logo\//);
  });
});
