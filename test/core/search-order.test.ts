/** `/search` ranks by liquidity itself: the spec leaves the direction of `orderby=main_pair_tvl` open. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketClient } from "../../src/market/client.js";
import { startFakeServer, v2ok, type FakeServer } from "../market/fake-server.js";
import { groupChat, testCore } from "./helpers.js";

const ASCENDING = ["1200", "45000", "980000", "23000000"].map((tvl, i) => ({
  token: `0x${String(i + 1).repeat(40)}`,
  chain: "eth",
  symbol: `PEPE${i}`,
  current_price_usd: "0.01",
  main_pair_tvl: tvl,
}));

let server: FakeServer;
let client: MarketClient;

beforeAll(async () => {
  server = await startFakeServer(() => v2ok(ASCENDING));
  client = new MarketClient({ v2: { baseUrl: server.url, key: "k" }, retry: { maxAttempts: 1 } });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe("/search", () => {
  it("lists the most liquid token first even when the service answers in ascending order", async () => {
    const { core } = await testCore(client);
    const reply = await core.handleText(groupChat(), "/search pepe");
    const table = reply?.blocks.find((b) => b.kind === "table");
    const rows = table?.kind === "table" ? table.rows : [];
    expect(server.received[0]?.query.get("orderby")).toBe("main_pair_tvl");
    expect(rows.map((r) => r[1])).toEqual(["PEPE3", "PEPE2", "PEPE1", "PEPE0"]);
    expect(rows.map((r) => r[5])).toEqual(["$23M", "$980K", "$45K", "$1.2K"]);
    expect((reply?.actions ?? []).flat()[0]).toMatchObject({ label: "1. PEPE3", args: [`0x${"4".repeat(40)}-eth`] });
  });
});
