/**
 * Ordered views over many tokens: rank lists per topic, the trending list per chain and
 * search. Each ordering reads the snapshots of one second and is memoised for that second,
 * so a pinned clock sorts once.
 */
import { RANK_TOPICS, type RankTopicId, type SearchOrderBy } from "../market/limits.js";
import type { Market } from "./market.js";
import type { SandboxToken, Tag } from "./types.js";

const TOPIC_NAMES: Record<RankTopicId, [string, string]> = {
  hot: ["Hot", "热门"], meme: ["Meme", "Meme"], gainer: ["Top Gainers", "涨幅榜"], solana: ["Solana", "Solana"],
  new: ["New", "新币"], bsc: ["BNB Chain", "BNB Chain"], loser: ["Top Losers", "跌幅榜"], eth: ["Ethereum", "以太坊"],
  base: ["Base", "Base"], depin: ["DePIN", "DePIN"], ai: ["AI", "AI"], l2: ["Layer 2", "二层网络"], gamefi: ["GameFi", "链游"],
  rwa: ["RWA", "现实资产"], arbitrum: ["Arbitrum", "Arbitrum"], blast: ["Blast", "Blast"], polygon: ["Polygon", "Polygon"],
  optimism: ["Optimism", "Optimism"], avalanche: ["Avalanche", "Avalanche"], merlin: ["Merlin", "Merlin"],
};

/** The 20 rank topics in the spec's order. */
export function rankTopics(): { id: string; name_en: string; name_zh: string }[] {
  return RANK_TOPICS.map((id) => ({ id, name_en: TOPIC_NAMES[id][0], name_zh: TOPIC_NAMES[id][1] }));
}

const TAGS: readonly string[] = ["meme", "ai", "depin", "gamefi", "rwa", "l2"] satisfies Tag[];
/** Tokens younger than this are "new". */
const NEW_AGE = 7 * 86_400;
/** Gainer and loser lists leave out dust pools, as listing sites do. */
const MIN_MOVER_LIQUIDITY = 10_000;
/** Trending lists at most this many tokens per chain. */
export const TRENDING_SIZE = 200;

export class Rankings {
  private readonly memo = new Map<string, { t: number; list: readonly SandboxToken[] }>();

  constructor(private readonly market: Market) {}

  private remember(key: string, now: number, compute: () => SandboxToken[]): readonly SandboxToken[] {
    const hit = this.memo.get(key);
    if (hit?.t === now) return hit.list;
    const list = compute();
    this.memo.set(key, { t: now, list });
    return list;
  }

  private live(now: number, tokens: readonly SandboxToken[]): SandboxToken[] {
    return tokens.filter((t) => t.launchAt <= now);
  }

  private byVolume(now: number, tokens: SandboxToken[]): SandboxToken[] {
    const m = this.market;
    return tokens.sort((a, b) => m.snapshot(b, now).windows["24h"].volume - m.snapshot(a, now).windows["24h"].volume);
  }

  /**
   * Tokens of `topic`, in the topic's order: chain and category topics and hot by 24h volume
   * (descending), gainer by 24h change (descending, rises only), loser by 24h change
   * (ascending, falls only), new by launch time (newest first, at most 7 days old).
   */
  rankList(topic: RankTopicId, now: number): readonly SandboxToken[] {
    const m = this.market;
    return this.remember(`rank:${topic}`, now, () => {
      const all = this.live(now, m.tokens);
      const change = (t: SandboxToken): number => m.snapshot(t, now).windows["24h"].change;
      switch (topic) {
        case "hot":
          return this.byVolume(now, all);
        case "gainer":
          return all.filter((t) => t.liquidity >= MIN_MOVER_LIQUIDITY && change(t) > 0).sort((a, b) => change(b) - change(a));
        case "loser":
          return all.filter((t) => t.liquidity >= MIN_MOVER_LIQUIDITY && change(t) < 0).sort((a, b) => change(a) - change(b));
        case "new":
          return all.filter((t) => t.launchAt > now - NEW_AGE).sort((a, b) => b.launchAt - a.launchAt);
        default:
          return TAGS.includes(topic)
            ? this.byVolume(now, all.filter((t) => (t.tags as readonly string[]).includes(topic)))
            : this.byVolume(now, all.filter((t) => t.chain === topic));
      }
    });
  }

  /** The chain's trending tokens: by 1h volume, descending, at most TRENDING_SIZE. */
  trending(chain: string, now: number): readonly SandboxToken[] {
    const m = this.market;
    return this.remember(`trending:${chain}`, now, () => {
      const vol = (t: SandboxToken): number => m.snapshot(t, now).windows["1h"].volume;
      return this.live(now, m.onChain(chain)).filter((t) => vol(t) > 0).sort((a, b) => vol(b) - vol(a)).slice(0, TRENDING_SIZE);
    });
  }

  /**
   * Tokens whose symbol contains `keyword` or whose address starts with it (case-insensitive
   * on EVM chains). With `orderby`, descending by that field; without, exact symbol matches
   * first, then 24h volume.
   */
  search(keyword: string, now: number, opts: { chain?: string; orderby?: SearchOrderBy }): SandboxToken[] {
    const m = this.market;
    const k = keyword.toLowerCase();
    const found = this.live(now, opts.chain ? m.onChain(opts.chain) : m.tokens).filter((t) => {
      if (t.symbol.toLowerCase().includes(k)) return true;
      return t.chainDef.family === "evm" ? t.address.startsWith(k) : t.address.startsWith(keyword);
    });
    const key = (t: SandboxToken): number => {
      const s = m.snapshot(t, now);
      switch (opts.orderby) {
        case "main_pair_tvl":
          return t.pairs[0]?.liquidity ?? 0;
        case "fdv":
          return s.price * t.supply;
        case "market_cap":
          return s.price * t.supply * t.circulating;
        default:
          return s.windows["24h"].volume;
      }
    };
    const exact = (t: SandboxToken): number => (opts.orderby === undefined && t.symbol.toLowerCase() === k ? 1 : 0);
    return found.sort((a, b) => exact(b) - exact(a) || key(b) - key(a));
  }
}
