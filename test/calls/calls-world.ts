/**
 * Calls against the sandbox: the real client, cache, store and core on one hand-moved clock, a
 * Telegram group's members as chat contexts, and the sweep on the client's digest lane.
 */
import { pino } from "pino";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import { DEFAULT_CALL_RULES, type CallRules } from "../../src/calls/rules.js";
import { sweepOnce, type SweepResult } from "../../src/calls/sweep.js";
import type { SweepPlan } from "../../src/calls/sweep-plan.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import type { BotCore } from "../../src/core/bot-core.js";
import type { ChatContext, Member } from "../../src/core/command.js";
import { createBotCore } from "../../src/core/create-core.js";
import type { Reply } from "../../src/core/reply.js";
import { MarketClient } from "../../src/market/client.js";
import { DIGEST_LANE } from "../../src/market/scheduler-lanes.js";
import { startSandbox, type Sandbox, type SandboxToken } from "../../src/sandbox/index.js";
import type { Store } from "../../src/store/types.js";

/** 2026-11-22 12:00 UTC. */
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** PEPE on Ethereum: a famous token of the sandbox with pools and a moving price. */
export const PEPE = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";

export interface CallsWorld {
  sandbox: Sandbox;
  clock: { now(): number; advance(ms: number): void };
  core: BotCore;
  store: Store;
  client: MarketClient;
  /** A member of the Telegram group `chatId` (default -1001), an admin or not. */
  member(userId: string, name: string, opts?: { admin?: boolean; chatId?: string; kind?: Member["kind"]; handle?: string }): ChatContext;
  /** A command typed in `chat`; the reply (never null here: the budget is off). */
  say(chat: ChatContext, text: string): Promise<Reply>;
  /** One sweep at the clock's time on `plan` (default: not paced). */
  sweep(plan?: SweepPlan): Promise<SweepResult>;
  token(id: string): SandboxToken;
  /** A core on the same store and sandbox, as after a restart. */
  restart(store: Store): BotCore;
  close(): Promise<void>;
}

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("charts are not part of this test")), close: async () => undefined };

/** Every sentence of a reply, title first. */
export function textOf(reply: Reply): string {
  const parts = [reply.title];
  for (const b of reply.blocks) {
    if (b.kind === "text") parts.push(b.text);
    else if (b.kind === "fields") parts.push(...b.fields.map((f) => `${f.label}: ${f.value}`));
    else parts.push(b.columns.join(" | "), ...b.rows.map((r) => r.join(" | ")));
  }
  return parts.join("\n");
}

export async function startCallsWorld(store: Store, opts: { rules?: Partial<CallRules>; charts?: ChartRenderer } = {}): Promise<CallsWorld> {
  let t = T0;
  const clock = { now: () => t, advance: (ms: number) => void (t += ms) };
  const sandbox = await startSandbox({ now: () => t, seed: 1 });
  const client = new MarketClient({
    v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, v1: { baseUrl: sandbox.url, key: sandbox.v1Key }, retry: { maxAttempts: 1 }, timeoutMs: 5_000,
  });
  const rules: CallRules = { ...DEFAULT_CALL_RULES, ...opts.rules };
  const build = (s: Store): BotCore => createBotCore({
    market: createCachedMarket(client, { now: clock.now }), store: s, charts: opts.charts ?? noCharts, log: pino({ level: "silent" }),
    source: "demo data (sandbox)", now: clock.now, calls: rules, unmetered: ["telegram", "discord", "console"],
  });
  const core = build(store);
  return {
    sandbox, clock, core, store, client,
    member(userId, name, o = {}) {
      return {
        platform: "telegram", chatId: o.chatId ?? "-1001", userId, isPrivate: false, isAdmin: async () => o.admin === true,
        member: { name, kind: o.kind ?? "person", ...(o.handle === undefined ? {} : { handle: o.handle }) },
      };
    },
    async say(chat, text) {
      const reply = await core.handleText(chat, text);
      if (reply === null) throw new Error(`no reply to ${text}`);
      return reply;
    },
    sweep: (plan = {}) => sweepOnce({ market: client.onLane(DIGEST_LANE), store: store.calls, now: clock.now, log: pino({ level: "silent" }), periodMs: rules.sweepPeriodMs, plan }),
    token(id) {
      const token = sandbox.market.token(id);
      if (token === undefined) throw new Error(`no token ${id} in the sandbox`);
      return token;
    },
    restart: build,
    async close() {
      await client.close();
      await sandbox.close();
    },
  };
}
