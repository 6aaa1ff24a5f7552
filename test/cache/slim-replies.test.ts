/**
 * The cache keeps only the fields replies read (src/cache/slim.ts). Two cores on one sandbox
 * and one pinned clock: one through the real cache, which stores slimmed entries, the other
 * through the cache switched off, which hands the commands the records as the service sent
 * them. Every reply that reads a detail, a risk report, a holder list, a price or a v1 record must come
 * out the same from both, in both languages: a field a reply shows that the cache dropped shows
 * up here as a difference. Both sides read one client whose answers are fetched once and
 * handed to each side as a copy of its own: the sandbox's work is not what is compared.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { ChartRenderer, ChartSpec } from "../../src/chart/index.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import type { MarketApi } from "../../src/market/api.js";
import { MarketClient } from "../../src/market/client.js";
import type { Holder, RiskReport, TokenDetail } from "../../src/market/schemas.js";
import { HOSTILE_TOKENS, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";

/** 2026-11-22 12:00 UTC. */
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
/** Sandbox tokens compared besides the hostile ones: the most liquid first, then a spread of the rest. */
const TOKENS = 24;

/**
 * What a chart reply hands the renderer is what it shows from the detail (name, quote, 24h
 * change); the picture itself is the chart module's. Answered with the spec as bytes, so two
 * replies are equal only when their specs are; counted, so the test knows charts were drawn.
 */
function recordingCharts(): ChartRenderer & { specs: ChartSpec[] } {
  const specs: ChartSpec[] = [];
  return {
    specs,
    render: async (spec) => {
      specs.push(spec);
      return new TextEncoder().encode(JSON.stringify(spec));
    },
    close: async () => undefined,
  };
}

interface Side {
  core: BotCore;
  charts: ReturnType<typeof recordingCharts>;
}

let sandbox: Sandbox;
let shared: MarketApi;
const closers: (() => Promise<void>)[] = [];
let slimmed: Side;
let full: Side;
let edgySlimmed: Side;
let edgyFull: Side;

/**
 * The sandbox's records with what it never sends but the service may: a Chinese introduction,
 * holders the report marks as contracts and LP, cards whose preferred figures are missing (so
 * the fallbacks show), a fake pair listed first. Both sides of a comparison read the same.
 */
function edgy(client: MarketApi): MarketApi {
  const odd = (id: string) => id.charCodeAt(id.indexOf("-") - 1) % 2 === 1;
  const marked = (r: RiskReport): RiskReport => ({
    ...r,
    token_holders_rank: r.token_holders_rank?.map((h, i) => ({ ...h, is_contract: i % 3 === 1 ? 1 : 0, is_lp: i === 2 ? 1 : 0 })),
  });
  const overrides: Partial<MarketApi> = {
    v1Token: async (id) => ({ ...(await client.v1Token(id)), intro_cn: `${id.slice(0, 6)} 的中文介绍` }),
    riskReport: async (id) => marked(await client.riskReport(id)),
    topHolders: async (p) => {
      const ranks = marked(await client.riskReport(p.tokenId)).token_holders_rank ?? [];
      const listed = await client.topHolders(p);
      const ranked: Holder[] = ranks.map((h, i) => ({ ...listed[i % Math.max(1, listed.length)], address: h.address, holder: h.address }));
      return [...ranked, ...listed];
    },
    tokenDetail: async (id) => {
      const d: TokenDetail = await client.tokenDetail(id);
      if (!odd(id)) return d;
      const { tvl: _tvl, launch_at: _launch, token_tx_volume_usd_24h: _vol, token_price_change_1h: _h1, price_change_24h: _d1, ...token } = d.token;
      const pairs = d.pairs.map(({ price_change_24h: _p24, ...p }) => p);
      const fake = pairs[0] === undefined ? [] : [{ ...pairs[0], pair: `${pairs[0].pair.slice(0, -4)}fake`, is_fake: true }];
      return { ...d, token, pairs: [...fake, ...pairs] };
    },
  };
  return new Proxy(client, { get: (target, key) => overrides[key as keyof MarketApi] ?? Reflect.get(target, key) });
}

/**
 * The sandbox's answers as the client decodes them, each call sent once: every later caller
 * gets a deep copy, so a side that changed what it was handed cannot change what the other reads.
 */
function fetchedOnce(client: MarketApi): MarketApi {
  const answers = new Map<string, Promise<unknown>>();
  return new Proxy(client, {
    get: (target, key) => {
      const method = Reflect.get(target, key) as unknown;
      if (typeof method !== "function") return method;
      return async (...args: unknown[]) => {
        const call = `${String(key)} ${JSON.stringify(args)}`;
        let answer = answers.get(call);
        if (answer === undefined) {
          answer = (method as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          answers.set(call, answer);
        }
        return structuredClone(await answer);
      };
    },
  });
}

async function side(cacheOff: boolean, edges = false): Promise<Side> {
  const store = await openSqliteStore({ path: ":memory:" });
  closers.push(() => store.close());
  const charts = recordingCharts();
  const market = createCachedMarket(edges ? edgy(shared) : shared, { now: () => T0, disabled: cacheOff });
  const core = createBotCore({ market, store, charts, log: pino({ level: "silent" }), source: "demo data (sandbox)", now: () => T0 });
  return { core, charts };
}

beforeAll(async () => {
  sandbox = await startSandbox({ time: T0, seed: 1 });
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key },
    v1: { baseUrl: sandbox.url, key: sandbox.v1Key },
    retry: { maxAttempts: 1 },
    timeoutMs: 5_000,
  });
  closers.push(() => client.close());
  shared = fetchedOnce(client);
  slimmed = await side(false);
  full = await side(true);
  edgySlimmed = await side(false, true);
  edgyFull = await side(true, true);
});

afterAll(async () => {
  for (const close of closers) await close();
  await sandbox.close();
});

function chat(lang: string): ChatContext {
  return { platform: "console", chatId: `slim-${lang}`, userId: "me", isPrivate: true, isAdmin: async () => true, userLanguage: lang };
}

/** The ids compared: hostile records, the first tokens, and tokens spread over the rest (other chains, thin pools, fakes). */
function ids(): string[] {
  const all = sandbox.market.tokens;
  const step = Math.floor(all.length / TOKENS);
  const spread = Array.from({ length: TOKENS }, (_, i) => all[i * step]?.id).filter((id): id is string => id !== undefined);
  return [...new Set([...HOSTILE_TOKENS.map((t) => t.id), ...all.slice(0, 6).map((t) => t.id), ...spread])];
}

/**
 * A reply with its pictures as text (each is a chart spec's JSON): vitest compares a byte array
 * element by element, which was nearly all of this file's time.
 */
function comparable(reply: unknown): unknown {
  const text = new TextDecoder();
  return JSON.parse(JSON.stringify(reply, (_key, value: unknown) => (value instanceof Uint8Array ? `bytes:${text.decode(value)}` : value)));
}

/** One command on both sides, the second run of the slimmed side answering from its cache. */
async function both(lang: string, command: string, args: readonly string[], sides: [Side, Side] = [slimmed, full]): Promise<void> {
  const first = comparable(await sides[0].core.run(chat(lang), command, args));
  const cached = comparable(await sides[0].core.run(chat(lang), command, args));
  const uncached = comparable(await sides[1].core.run(chat(lang), command, args));
  expect(first, `${command} ${args.join(" ")} (${lang}), fetched`).toEqual(uncached);
  expect(cached, `${command} ${args.join(" ")} (${lang}), from the cache`).toEqual(uncached);
}

describe("replies from slimmed cache entries", () => {
  it.each(["en", "zh"])("are the replies of the full records: card, risk, holders, swaps, prices, watchlist, alerts (%s)", async (lang) => {
    for (const id of ids()) {
      await both(lang, "token", [id]);
      await both(lang, "risk", [id]);
      await both(lang, "holders", [id, "25"]);
      await both(lang, "swaps", [id]);
      await both(lang, "price", [id]);
    }
    const some = ids().slice(0, 8);
    await both(lang, "price", some);
    // Setting a watchlist and an alert changes the chat: once on each side.
    for (const [command, args] of [["watch", some], ["alert", [some[0] ?? "", "above", "1000000"]]] as const) {
      expect(comparable(await slimmed.core.run(chat(lang), command, args))).toEqual(comparable(await full.core.run(chat(lang), command, args)));
    }
    await both(lang, "watchlist", []);
    await both(lang, "alerts", []);
  }, 120_000);

  it.each(["en", "zh"])("are the replies of the full records with the fields the sandbox leaves out (%s)", async (lang) => {
    for (const id of ids().slice(0, 16)) {
      await both(lang, "token", [id], [edgySlimmed, edgyFull]);
      await both(lang, "holders", [id, "25"], [edgySlimmed, edgyFull]);
      await both(lang, "chart", [id], [edgySlimmed, edgyFull]);
    }
    for (const token of sandbox.market.tokens.slice(0, 8)) {
      for (const pair of token.pairs) await both(lang, "chart", [pair.id], [edgySlimmed, edgyFull]);
    }
  }, 120_000);

  it("draw the same charts of tokens and of their pools, in price and in the pair's terms", async () => {
    const drawn = slimmed.charts.specs.length;
    for (const id of ids().slice(0, 6)) {
      await both("en", "chart", [id]);
      await both("en", "chart", [id, "1h", "r"]);
    }
    for (const token of sandbox.market.tokens.slice(0, 4)) {
      for (const pair of token.pairs) await both("en", "chart", [pair.id]);
    }
    // The replies' pictures are the specs the renderer was handed, so equal replies are equal charts.
    expect(slimmed.charts.specs.length - drawn).toBeGreaterThan(12);
  }, 120_000);
});
