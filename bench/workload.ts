/**
 * The command workload of the upstream and latency benchmarks: Zipf-distributed tokens (a
 * few are asked about constantly, most rarely), a mix of commands, many chats and users,
 * all from a seeded generator so every run asks the same questions.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import type { CachedMarket } from "../src/cache/types.js";
import { createChartRenderer } from "../src/chart/index.js";
import type { BotCore } from "../src/core/bot-core.js";
import type { ChatContext } from "../src/core/command.js";
import { createBotCore, type CoreDeps } from "../src/core/create-core.js";
import type { SandboxToken } from "../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../src/store/sqlite/store.js";

/** A seeded generator in [0, 1) (Park–Miller), so a run's questions repeat exactly. */
export function seeded(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}

/** Draws ranks 0..n-1 with P(k) ∝ 1 / (k+1)^s. */
export function zipf(n: number, s: number, random: () => number): () => number {
  const cdf: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) cdf.push((total += 1 / k ** s));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** One command as a person sends it. */
export interface Ask {
  chat: ChatContext;
  text: string;
}

/** The commands and how often each is sent, in twentieths. */
const MIX: readonly string[] = [
  ...Array<string>(8).fill("price"), ...Array<string>(6).fill("token"), ...Array<string>(3).fill("risk"), ...Array<string>(3).fill("holders"),
];

export function chatContext(chatId: string, userId: string): ChatContext {
  return { platform: "telegram", chatId, userId, isPrivate: false, isAdmin: async () => false };
}

/** The 500 tokens the workload asks about, most liquid first (popular tokens are liquid ones), without hostile ones. */
export function workloadTokens(tokens: readonly SandboxToken[], count: number): SandboxToken[] {
  return tokens.filter((t) => t.hostile === undefined && !t.main).sort((a, b) => b.liquidity - a.liquidity).slice(0, count);
}

/** `count` commands over `tokens` by Zipf rank, from `chats` chats of `usersPerChat` users each. */
export function zipfWorkload(opts: { tokens: readonly SandboxToken[]; count: number; s: number; chats: number; usersPerChat: number; seed: number }): Ask[] {
  const random = seeded(opts.seed);
  const rank = zipf(opts.tokens.length, opts.s, random);
  return Array.from({ length: opts.count }, () => {
    const token = opts.tokens[rank()] as SandboxToken;
    const command = MIX[Math.floor(random() * MIX.length)] as string;
    const chat = Math.floor(random() * opts.chats);
    const user = Math.floor(random() * opts.usersPerChat);
    return { chat: chatContext(`-${1000 + chat}`, `${chat * opts.usersPerChat + user + 1}`), text: `/${command} ${token.id}` };
  });
}

/** A real core (SQLite store in a temporary folder, chart renderer, silent log) over `market`. */
export interface CoreHarness {
  core: BotCore;
  store: SqliteStore;
  close(): Promise<void>;
}

export async function coreOver(market: CachedMarket, now: () => number, deps: Partial<CoreDeps> = {}): Promise<CoreHarness> {
  const dir = mkdtempSync(join(tmpdir(), "chainpulse-bench-"));
  const store = await openSqliteStore({ path: join(dir, "bench.sqlite") });
  const charts = createChartRenderer({ workers: 1 });
  const core = createBotCore({ market, store, charts, log: pino({ level: "silent" }), source: "benchmark (sandbox)", now, ...deps });
  return {
    core,
    store,
    close: async () => {
      await charts.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
