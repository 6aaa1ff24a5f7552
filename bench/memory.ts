/**
 * Benchmark 5: memory of the lookup cache. 50,000 entries of real sandbox records (prices,
 * token details, risk reports, holder lists, as the client decodes them) go through the real
 * cache; we read RSS and heap growth, and find the cache's own byte accounting from outside
 * by filling a second cache with a known bound and counting what it kept. Baseline: the same
 * values in a plain Map, the least any cache can cost.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MarketApi } from "../src/market/api.js";
import { createCachedMarket } from "../src/cache/cached-market.js";
import type { CachedMarket } from "../src/cache/types.js";
import { heapMb, rssMb } from "./measure.js";
import type { Kind } from "./memory-samples.js";
import type { BenchResult, Benchmark, Size } from "./types.js";

/** Share of entries per kind, in tenths: prices are asked most, holder lists least. */
const MIX: readonly Kind[] = ["price", "price", "price", "price", "detail", "detail", "detail", "risk", "risk", "holders"];
const DEFAULT_BOUND = 32 * 1024 * 1024;
const PROBE_BOUND = 48 * 1024 * 1024;
const PLAN: Record<Size, { entries: number; sampleTokens: number }> = { full: { entries: 50_000, sampleTokens: 60 }, smoke: { entries: 400, sampleTokens: 4 } };
/** Longest the child fetching the samples may take. */
const SAMPLES_TIMEOUT_MS = 20_000;

/** Real sandbox records, fetched by bench/memory-samples.ts in a child process and read back from a temporary file. */
function samples(count: number): Record<Kind, string[]> {
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-memory-"));
  const out = join(dir, "samples.json");
  try {
    execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./memory-samples.ts", import.meta.url)), String(count), out], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      stdio: ["ignore", "ignore", "inherit"],
      timeout: SAMPLES_TIMEOUT_MS,
    });
    return JSON.parse(readFileSync(out, "utf8")) as Record<Kind, string[]>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The i-th entry's token id: distinct EVM addresses, so every entry has its own key. */
function idOf(i: number): string {
  return `0x${i.toString(16).padStart(40, "0")}-eth`;
}

/** A market that answers from the samples, a fresh copy per call, as JSON decoding would. */
function sampleApi(s: Record<Kind, string[]>): MarketApi {
  const copy = (kind: Kind, id: string): unknown => {
    const list = s[kind];
    return JSON.parse(list[Number.parseInt(id.slice(2, 42), 16) % list.length] as string);
  };
  const api: Partial<MarketApi> = {
    batchPrices: async (p) => Object.fromEntries(p.tokenIds.map((id) => [id, copy("price", id)])) as never,
    tokenDetail: async (id) => copy("detail", id) as never,
    riskReport: async (id) => copy("risk", id) as never,
    topHolders: async (p) => copy("holders", p.tokenId) as never,
  };
  // The cache binds every method up front; the ones this benchmark never asks for refuse.
  const refuse = async (): Promise<never> => {
    throw new Error("not part of the memory benchmark");
  };
  return new Proxy(api, { get: (target, key) => target[key as keyof MarketApi] ?? refuse }) as MarketApi;
}

function lookup(market: CachedMarket, i: number): Promise<unknown> {
  const id = idOf(i);
  switch (MIX[i % MIX.length]) {
    case "price":
      return market.batchPrices({ tokenIds: [id], tvlMin: 0 });
    case "detail":
      return market.tokenDetail(id);
    case "risk":
      return market.riskReport(id);
    default:
      return market.topHolders({ tokenId: id, limit: 100 });
  }
}

/** Fills a cache with `count` entries, `batch` at a time (so price lookups batch as they would). */
async function fill(market: CachedMarket, count: number, batch: number): Promise<void> {
  for (let i = 0; i < count; i += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - i) }, (_, k) => lookup(market, i + k)));
  }
}

/** How many of the newest entries a cache still holds: probe newest first until the first miss. */
async function retained(count: number, api: MarketApi, bound: number): Promise<number> {
  let misses = 0;
  const market = createCachedMarket(api, { maxBytes: bound, now: () => 0, onEvent: (e) => void (e.outcome === "miss" && misses++) });
  // One at a time: under a tight bound, concurrent misses evict each other while in flight.
  await fill(market, count, 1);
  misses = 0;
  let kept = 0;
  for (let i = count - 1; i >= 0; i--) {
    await lookup(market, i);
    if (misses > 0) break;
    kept++;
  }
  return kept;
}

/** Runs the benchmark at `size`. */
export async function run(size: Size): Promise<BenchResult> {
  const started = performance.now();
  const { entries, sampleTokens } = PLAN[size];
  const s = samples(sampleTokens);
  const api = sampleApi(s);
  const jsonMb = (MIX.map((k) => s[k].reduce((a, x) => a + x.length, 0) / s[k].length).reduce((a, b) => a + b, 0) / MIX.length) * entries / 1024 ** 2;

  // Bound far above the data, so all entries stay; the clock is pinned so none expires.
  const rssBefore = rssMb();
  const heapBefore = heapMb();
  let cache: CachedMarket | undefined = createCachedMarket(api, { maxBytes: 4 * 1024 ** 3, now: () => 0 });
  await fill(cache, entries, 500);
  const rssFull = rssMb();
  const cacheGrowth = heapMb() - heapBefore;
  cache = undefined;

  const baseBefore = heapMb();
  let plain: Map<string, unknown> | undefined = new Map();
  for (let i = 0; i < entries; i++) {
    const id = idOf(i);
    const kind = MIX[i % MIX.length] as Kind;
    const value = kind === "price" ? await api.batchPrices({ tokenIds: [id] }) : kind === "detail" ? await api.tokenDetail(id) : kind === "risk" ? await api.riskReport(id) : await api.topHolders({ tokenId: id });
    plain.set(`${kind}:${id}`, value);
  }
  const plainGrowth = heapMb() - baseBefore;
  plain.clear();
  plain = undefined;

  const probeBound = size === "full" ? PROBE_BOUND : 256 * 1024;
  const kept = await retained(entries, api, probeBound);
  const accountedPerEntry = kept > 0 ? probeBound / kept : Number.NaN;
  const accountedMb = (accountedPerEntry * entries) / 1024 ** 2;
  const heldByDefault = Math.min(entries, Math.floor(DEFAULT_BOUND / accountedPerEntry));
  const heapPerAccounted = cacheGrowth / accountedMb;

  const notes: string[] = [
    `The cache counts ${(accountedPerEntry / 1024).toFixed(2)} KB an entry (JSON length + overhead); the heap grew ${heapPerAccounted.toFixed(2)} MB per accounted MB, ` +
      `so its default bound of 32 MiB of accounting costs about ${Math.round(32 * heapPerAccounted)} MB of heap.`,
    `At that accounting the default bound keeps ${heldByDefault.toLocaleString("en-US")} of these ${entries.toLocaleString("en-US")} entries; the rest are evicted, least recently used first.`,
  ];
  if (!(rssFull <= 150)) {
    notes.push(
      `RSS misses 150 MB with all entries held: the records as the service sends them are ${jsonMb.toFixed(0)} MB of JSON, ` +
        `mostly holder lists (${(s.holders.reduce((a, x) => a + x.length, 0) / s.holders.length / 1024).toFixed(0)} KB each on average for 100 holders), ` +
        `of which the cache keeps the six fields /holders shows (${accountedMb.toFixed(0)} MB accounted). ` +
        "What remains is mostly token details with their pairs and full risk reports; trimming those to what the card and /risk show, " +
        "or the default 32 MiB bound, is what would bring it down.",
    );
  }
  return {
    name: "memory",
    title: "5. Memory",
    setup:
      `${entries.toLocaleString("en-US")} entries through createCachedMarket (4 in 10 prices, 3 token details, 2 risk reports, 1 list of 100 holders; ` +
      `fresh copies of real sandbox records of ${sampleTokens} tokens, fetched by a child process so the sandbox never counts here), ` +
      "bound raised so all stay, clock pinned so none expires; RSS growth is from just before filling. " +
      "Baseline: the same values in a plain Map. The accounting is read from outside: a cache bounded at " +
      `${(probeBound / 1024 ** 2).toFixed(2)} MiB is filled the same way and its kept entries counted.`,
    figures: [
      { metric: "RSS before filling", unit: "MB", value: rssBefore },
      { metric: `RSS with ${entries.toLocaleString("en-US")} entries`, unit: "MB", value: rssFull, target: { text: "≤ 150 MB", met: rssFull <= 150 } },
      { metric: "RSS growth", unit: "MB", value: rssFull - rssBefore },
      { metric: "heap growth", unit: "MB", value: cacheGrowth, baseline: plainGrowth },
      { metric: "records as JSON", unit: "MB", value: jsonMb },
      { metric: "cache's own accounting", unit: "MB", value: accountedMb },
      { metric: "heap growth / accounting", unit: "", value: heapPerAccounted },
      { metric: "entries kept by the default 32 MiB bound", unit: "", value: heldByDefault },
    ],
    notes,
    elapsedMs: performance.now() - started,
  };
}

export const memory: Benchmark = {
  name: "memory",
  title: "5. Memory",
  targets:
    "A bot holding 50,000 lookups should fit a small container (RSS ≤ 150 MB); the cache's byte accounting should track the real heap " +
    "closely enough that its bound is a real memory bound (the ratio tells how far).",
  // The samples' child is bounded; filling three caches and a Map is fixed work that took 25–50 s on 2 shared cores.
  limitSeconds: SAMPLES_TIMEOUT_MS / 1000 + 50,
  run,
};
