/**
 * Benchmark 5: memory of the lookup cache. 50,000 entries of real sandbox records (prices,
 * token details, risk reports, holder lists, as the client decodes them) go through the real
 * cache; we read RSS and heap growth, and find the cache's own byte accounting from outside
 * by filling a second cache with a known bound and counting what it kept. Baseline: the same
 * values in a plain Map, the least any cache can cost. The Redis row fills the same entries into
 * the cache with its store in a throw-away redis-server, in a fresh process (memory-redis.ts).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { MarketApi } from "../src/market/api.js";
import { createCachedMarket } from "../src/cache/cached-market.js";
import type { CachedMarket } from "../src/cache/types.js";
import { startRedis } from "../test/engines/redis.js";
import { heapMb, rssMb } from "./measure.js";
import { fill, idOf, lookup, MIX, sampleApi } from "./memory-fill.js";
import type { RedisFill } from "./memory-redis.js";
import type { Kind } from "./memory-samples.js";
import type { BenchResult, Benchmark, Size } from "./types.js";

const DEFAULT_BOUND = 32 * 1024 * 1024;
const PROBE_BOUND = 48 * 1024 * 1024;
const PLAN: Record<Size, { entries: number; sampleTokens: number }> = { full: { entries: 50_000, sampleTokens: 60 }, smoke: { entries: 400, sampleTokens: 4 } };
/** Longest the child fetching the samples may take. */
const SAMPLES_TIMEOUT_MS = 15_000;
/** Longest the Redis row's child may take to fill and measure: 10,000 entries took 3.6 s with 2 shared cores at load 9, so 50,000 about 15 s. */
const REDIS_FILL_TIMEOUT_MS = 30_000;
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Real sandbox records, fetched by bench/memory-samples.ts in a child process and read back from a temporary file. */
function samples(count: number): Record<Kind, string[]> {
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-memory-"));
  const out = join(dir, "samples.json");
  try {
    execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./memory-samples.ts", import.meta.url)), String(count), out], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      timeout: SAMPLES_TIMEOUT_MS,
    });
    return JSON.parse(readFileSync(out, "utf8")) as Record<Kind, string[]>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Redis row: `entries` through the cache with its store in a throw-away redis-server, measured by a process of its own. */
async function redisFill(entries: number, s: Record<Kind, string[]>): Promise<RedisFill> {
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-memory-redis-"));
  const engine = await startRedis();
  try {
    const samplesPath = join(dir, "samples.json");
    const out = join(dir, "fill.json");
    writeFileSync(samplesPath, JSON.stringify(s));
    const script = fileURLToPath(new URL("./memory-redis.ts", import.meta.url));
    await promisify(execFile)(process.execPath, ["--expose-gc", "--import", "tsx", script, String(entries), samplesPath, engine.url, out], {
      cwd: ROOT,
      timeout: REDIS_FILL_TIMEOUT_MS,
    });
    return JSON.parse(readFileSync(out, "utf8")) as RedisFill;
  } finally {
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
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
  const shared = await redisFill(entries, s);

  const notes: string[] = [
    `The cache counts ${(accountedPerEntry / 1024).toFixed(2)} KB an entry (JSON length + overhead); the heap grew ${heapPerAccounted.toFixed(2)} MB per accounted MB, ` +
      `so its default bound of 32 MiB of accounting costs about ${Math.round(32 * heapPerAccounted)} MB of heap.`,
    `At that accounting the default bound keeps ${heldByDefault.toLocaleString("en-US")} of these ${entries.toLocaleString("en-US")} entries; the rest are evicted, least recently used first.`,
  ];
  if (!(rssFull <= 150)) {
    notes.push(
      `RSS misses 150 MB with all entries held: the records as the service sends them are ${jsonMb.toFixed(0)} MB of JSON, ` +
        `mostly holder lists (${(s.holders.reduce((a, x) => a + x.length, 0) / s.holders.length / 1024).toFixed(0)} KB each on average for 100 holders), ` +
        `of which the cache keeps the six fields /holders shows of the first 25 holders (${accountedMb.toFixed(0)} MB accounted in all). ` +
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
      `${(probeBound / 1024 ** 2).toFixed(2)} MiB is filled the same way and its kept entries counted. ` +
      "The \"cache in Redis\" rows fill the same entries the same way into the cache with its store in a throw-away local redis-server, " +
      "wired as REDIS_URL wires it (every entry in Redis, the in-process copy it writes through at its default 32 MiB bound), " +
      "in a fresh process of their own so that the in-process fill's high-water mark does not show in its RSS; " +
      "their baseline column is the cache in process (the rows above). The server's growth is its used_memory (INFO memory).",
    figures: [
      { metric: "RSS before filling", unit: "MB", value: rssBefore },
      { metric: `RSS with ${entries.toLocaleString("en-US")} entries`, unit: "MB", value: rssFull, target: { text: "≤ 150 MB", met: rssFull <= 150 } },
      { metric: "RSS growth", unit: "MB", value: rssFull - rssBefore },
      { metric: "heap growth", unit: "MB", value: cacheGrowth, baseline: plainGrowth },
      { metric: "records as JSON", unit: "MB", value: jsonMb },
      { metric: "cache's own accounting", unit: "MB", value: accountedMb },
      { metric: "heap growth / accounting", unit: "", value: heapPerAccounted },
      { metric: "entries kept by the default 32 MiB bound", unit: "", value: heldByDefault },
      { metric: "cache in Redis: RSS before filling", unit: "MB", value: shared.rssBefore, baseline: rssBefore },
      { metric: `cache in Redis: RSS with ${entries.toLocaleString("en-US")} entries`, unit: "MB", value: shared.rssFull, baseline: rssFull },
      { metric: "cache in Redis: RSS growth", unit: "MB", value: shared.rssFull - shared.rssBefore, baseline: rssFull - rssBefore },
      { metric: "cache in Redis: heap growth", unit: "MB", value: shared.heapGrowth, baseline: cacheGrowth },
      { metric: "cache in Redis: entries in Redis", unit: "", value: shared.entriesInRedis },
      { metric: "cache in Redis: redis-server memory growth", unit: "MB", value: shared.serverGrowth },
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
    "closely enough that its bound is a real memory bound (the ratio tells how far). " +
    "The Redis rows have no target: they tell what moving the cache into a shared Redis takes off the process and puts on the server.",
  // The samples' child and the Redis row's are bounded; fetching the samples and filling three
  // caches and a Map took 24.2 s in all on 2 shared cores; starting and stopping Redis, 2 s more.
  limitSeconds: SAMPLES_TIMEOUT_MS / 1000 + 30 + REDIS_FILL_TIMEOUT_MS / 1000 + 2,
  run,
};
