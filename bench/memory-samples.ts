/**
 * Real records for the memory benchmark, fetched from the sandbox in a child process of their
 * own (`node --import tsx bench/memory-samples.ts <tokens> <out.json>`), so that the sandbox's
 * market and the client never count in the measuring process's RSS.
 */
import { writeFileSync } from "node:fs";
import { MarketClient } from "../src/market/client.js";
import { startSandbox } from "../src/sandbox/index.js";

/** The kinds of cache entry the benchmark fills. */
export type Kind = "price" | "detail" | "risk" | "holders";

/** Records of each kind for the first `count` sandbox tokens, as JSON text so every entry can be a fresh copy. */
async function samples(count: number): Promise<Record<Kind, string[]>> {
  const sandbox = await startSandbox({ seed: 1 });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key } });
  const out: Record<Kind, string[]> = { price: [], detail: [], risk: [], holders: [] };
  try {
    for (const token of sandbox.market.tokens.slice(0, count)) {
      const settle = async (kind: Kind, get: () => Promise<unknown>): Promise<void> => {
        try {
          out[kind].push(JSON.stringify(await get()));
        } catch {
          // A token the service has no record of for this kind simply adds no sample.
        }
      };
      await settle("price", async () => Object.values(await client.batchPrices({ tokenIds: [token.id], tvlMin: 0 }))[0] ?? null);
      await settle("detail", () => client.tokenDetail(token.id));
      await settle("risk", () => client.riskReport(token.id));
      await settle("holders", () => client.topHolders({ tokenId: token.id, limit: 100 }));
    }
  } finally {
    await client.close();
    await sandbox.close();
  }
  return out;
}

const [count, out] = process.argv.slice(2);
if (count !== undefined && out !== undefined) writeFileSync(out, JSON.stringify(await samples(Number(count))));
