/**
 * Benchmark 5: memory of the lookup cache. 50,000 entries of real sandbox records (prices,
 * token details, risk reports, holder lists, as the client decodes them) go through the real
 * cache in a fresh process of its own, run compiled as the bot runs (memory-child.ts); we read
 * its RSS and heap growth, and find the cache's own byte accounting from outside by filling a
 * second cache with a known bound and counting what it kept. Baseline: the same values in a
 * plain Map, the least any cache can cost. The Redis row fills the same entries into the cache
 * with its store in a throw-away redis-server, in another fresh process.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import type { MarketApi } from "../src/market/api.js";
import { createCachedMarket } from "../src/cache/cached-market.js";
import { startRedis } from "../test/engines/redis.js";
import { heapMb } from "./measure.js";
import { fill, idOf, lookup, MIX, sampleApi } from "./memory-fill.js";
import type { ChildFill } from "./memory-child.js";
import type { Kind } from "./memory-samples.js";
import type { BenchResult, Benchmark, Size } from "./types.js";

const DEFAULT_BOUND = 32 * 1024 * 1024;
const PROBE_BOUND = 48 * 1024 * 1024;
/** `settleMs`: longest a row waits for RSS to settle after its fill (V8 gave back the fill's garbage 5 s after it, on 2 loaded cores). */
const PLAN: Record<Size, { entries: number; sampleTokens: number; settleMs: number }> = {
  full: { entries: 50_000, sampleTokens: 60, settleMs: 15_000 },
  smoke: { entries: 400, sampleTokens: 4, settleMs: 0 },
};
/**
 * Longest the child fetching the samples may take: a bound for a broken child, not a measure
 * (it took over 15 s beside two test suites on 2 busy cores). With the rows' bound below it
 * keeps every benchmark together inside the runner's 20 minutes.
 */
const SAMPLES_TIMEOUT_MS = 45_000;
/** Longest a row's child may take to fill and measure, besides its settling: 50,000 entries took about 15 s with 2 shared cores at load 9. */
const FILL_TIMEOUT_MS = 40_000;
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

/**
 * The rows' child compiled to one JavaScript file, as the bot runs from dist/: under the
 * TypeScript loader it would carry the loader's thread (about 30 MB of RSS no bot has). Its
 * packages stay outside the bundle, so it lives where they resolve: under node_modules/.cache.
 */
async function compiledChild(): Promise<{ path: string; remove(): void }> {
  const cache = join(ROOT, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, "chainpulse-memory-"));
  const path = join(dir, "memory-child.mjs");
  await build({
    entryPoints: [fileURLToPath(new URL("./memory-child.ts", import.meta.url))],
    outfile: path, bundle: true, platform: "node", format: "esm", target: "node20", packages: "external", logLevel: "error",
  });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One row in its child: `entries` through the cache in process, or with its store in `redisUrl`. */
async function childFill(child: string, entries: number, s: Record<Kind, string[]>, settleMs: number, redisUrl?: string): Promise<ChildFill> {
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-memory-fill-"));
  try {
    const samplesPath = join(dir, "samples.json");
    const out = join(dir, "fill.json");
    writeFileSync(samplesPath, JSON.stringify(s));
    const args = [redisUrl === undefined ? "local" : "redis", String(entries), samplesPath, out, String(settleMs), ...(redisUrl === undefined ? [] : [redisUrl])];
    await promisify(execFile)(process.execPath, ["--expose-gc", child, ...args], { cwd: ROOT, timeout: FILL_TIMEOUT_MS + settleMs });
    return JSON.parse(readFileSync(out, "utf8")) as ChildFill;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Both rows' children, one after the other, each in a fresh process. */
async function childFills(entries: number, s: Record<Kind, string[]>, settleMs: number): Promise<{ local: ChildFill; shared: ChildFill }> {
  const child = await compiledChild();
  try {
    const local = await childFill(child.path, entries, s, settleMs);
    const engine = await startRedis();
    try {
      return { local, shared: await childFill(child.path, entries, s, settleMs, engine.url) };
    } finally {
      await engine.stop();
    }
  } finally {
    child.remove();
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
  const { entries, sampleTokens, settleMs } = PLAN[size];
  const s = samples(sampleTokens);
  const api = sampleApi(s);
  const avgJson = (k: Kind) => s[k].reduce((a, x) => a + x.length, 0) / s[k].length;
  const jsonMb = (MIX.map(avgJson).reduce((a, b) => a + b, 0) / MIX.length) * entries / 1024 ** 2;

  const { local, shared } = await childFills(entries, s, settleMs);

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
  const heapPerAccounted = local.heapGrowth / accountedMb;
  const rssFull = local.rssSettled;

  const notes: string[] = [
    `The cache counts ${(accountedPerEntry / 1024).toFixed(2)} KB an entry (its heap estimated from its JSON length); the heap grew ${heapPerAccounted.toFixed(2)} MB per accounted MB, ` +
      `so its default bound of 32 MiB of accounting costs about ${Math.round(32 * heapPerAccounted)} MB of heap.`,
    `At that accounting the default bound keeps ${heldByDefault.toLocaleString("en-US")} of these ${entries.toLocaleString("en-US")} entries; the rest are evicted, least recently used first.`,
    `The records as the service sends them are ${jsonMb.toFixed(0)} MB of JSON (holder lists ${(avgJson("holders") / 1024).toFixed(0)} KB each for 100 holders, ` +
      `details ${(avgJson("detail") / 1024).toFixed(1)} KB, risk reports ${(avgJson("risk") / 1024).toFixed(1)} KB); the cache keeps of each only the fields replies read ` +
      `(src/cache/slim.ts), which is why it holds them in ${(local.heapGrowth / plainGrowth * 100).toFixed(0)} % of the heap of the plain Map of the same records.`,
    `Right after the fill the process held ${local.rssPeak.toFixed(0)} MB: the pages the fill's garbage took (each holder list is parsed whole before it is cut to 25) ` +
      `stay until V8's memory reducer gives them back, a few seconds after allocation calms down; the ${entries.toLocaleString("en-US")}-entry row is read after that.`,
  ];
  if (!(rssFull <= 150)) {
    notes.push(`RSS misses 150 MB with all entries held once settled: ${rssFull.toFixed(0)} MB, of which ${local.rssBefore.toFixed(0)} MB before the fill (node, the cache's modules, the samples).`);
  }
  return {
    name: "memory",
    title: "5. Memory",
    setup:
      `${entries.toLocaleString("en-US")} entries through createCachedMarket (4 in 10 prices, 3 token details, 2 risk reports, 1 list of 100 holders; ` +
      `fresh copies of real sandbox records of ${sampleTokens} tokens, fetched by a child process so the sandbox never counts here), ` +
      "bound raised so all stay, clock pinned so none expires, in a fresh process of its own run compiled as the bot runs from dist/ " +
      "(bench/memory-child.ts bundled; the benchmark harness and the TypeScript loader would add 80 MB no bot has); " +
      "RSS is read before the fill, right after it, and once it has settled (V8 gave back the fill's garbage; at most " +
      `${(settleMs / 1000).toFixed(0)} s), growth from before the fill. Baseline: the same values in a plain Map. The accounting is read from outside: a cache bounded at ` +
      `${(probeBound / 1024 ** 2).toFixed(2)} MiB is filled the same way and its kept entries counted. ` +
      "The \"cache in Redis\" rows fill the same entries the same way into the cache with its store in a throw-away local redis-server, " +
      "wired as REDIS_URL wires it (every entry in Redis, the in-process copy it writes through at its default 32 MiB bound), " +
      "in another fresh process measured the same way; their baseline column is the cache in process (the rows above). The server's growth is its used_memory (INFO memory).",
    figures: [
      { metric: "RSS before filling", unit: "MB", value: local.rssBefore },
      { metric: `RSS with ${entries.toLocaleString("en-US")} entries`, unit: "MB", value: rssFull, target: { text: "≤ 150 MB", met: rssFull <= 150 } },
      { metric: "RSS growth", unit: "MB", value: rssFull - local.rssBefore },
      { metric: "RSS right after filling", unit: "MB", value: local.rssPeak },
      { metric: "heap growth", unit: "MB", value: local.heapGrowth, baseline: plainGrowth },
      { metric: "records as JSON", unit: "MB", value: jsonMb },
      { metric: "cache's own accounting", unit: "MB", value: accountedMb },
      { metric: "heap growth / accounting", unit: "", value: heapPerAccounted },
      { metric: "entries kept by the default 32 MiB bound", unit: "", value: heldByDefault },
      { metric: "cache in Redis: RSS before filling", unit: "MB", value: shared.rssBefore, baseline: local.rssBefore },
      { metric: `cache in Redis: RSS with ${entries.toLocaleString("en-US")} entries`, unit: "MB", value: shared.rssSettled, baseline: rssFull },
      { metric: "cache in Redis: RSS growth", unit: "MB", value: shared.rssSettled - shared.rssBefore, baseline: rssFull - local.rssBefore },
      { metric: "cache in Redis: RSS right after filling", unit: "MB", value: shared.rssPeak, baseline: local.rssPeak },
      { metric: "cache in Redis: heap growth", unit: "MB", value: shared.heapGrowth, baseline: local.heapGrowth },
      { metric: "cache in Redis: entries in Redis", unit: "", value: shared.entriesInRedis ?? 0 },
      { metric: "cache in Redis: redis-server memory growth", unit: "MB", value: shared.serverGrowth ?? 0 },
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
  // The samples' child and both rows' are bounded; the Map and the probe took 15 s on 2 shared
  // cores; starting and stopping Redis and bundling the rows' child, 3 s more.
  limitSeconds: SAMPLES_TIMEOUT_MS / 1000 + 2 * (FILL_TIMEOUT_MS + PLAN.full.settleMs) / 1000 + 20,
  run,
};
