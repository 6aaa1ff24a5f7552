/**
 * Benchmark 1: command latency through Telegram. The real bot (the Telegram adapter long
 * polling the loopback fake Bot API, the core, the cache warm) answers `/price` from many
 * chats, each chat sending its next command once the last was answered. Baseline: a bare
 * grammY bot, polled by the same runner, replying a constant string on the same fake. The
 * Redis row runs the same bot with its state in a throw-away redis-server, as with REDIS_URL,
 * beside the in-process bot of the same run: what sharing costs a cached command.
 */
import { run as runBot } from "@grammyjs/runner";
import { Bot } from "grammy";
import type { Chat } from "grammy/types";
import pino from "pino";
import { createTelegramAdapter } from "../src/adapters/telegram/adapter.js";
import { createCachedMarket } from "../src/cache/cached-market.js";
import { MarketClient } from "../src/market/client.js";
import { createRedisCacheStore } from "../src/redis/cache-store.js";
import { connectRedis, KEY_PREFIX, type SharedRedis } from "../src/redis/connection.js";
import { startSandbox } from "../src/sandbox/index.js";
import { startRedis } from "../test/engines/redis.js";
import { fakeUser, groupChat, startFakeTelegram, type FakeTelegram } from "../test/fakes/telegram-api.js";
import { Deadline, percentile } from "./measure.js";
import { formatNumber } from "./report.js";
import { chatContext, coreOver, workloadTokens } from "./workload.js";
import type { BenchResult, Benchmark, Size } from "./types.js";

const TOKENS = 20;
const T0 = Date.UTC(2026, 10, 22, 12, 0);
/** A command not answered within this is given up on (it counts as no answer): 4× the slowest answers measured (p99 1.2 s). */
const ANSWER_TIMEOUT_MS = 5_000;
/**
 * `seconds` bounds each of the three drives; a command sent just before it may wait ANSWER_TIMEOUT_MS
 * more. A full drive took 1.4 s on 2 shared cores: the bound leaves 4× that, and commands cut off
 * by it show as fewer answers.
 */
const PLAN: Record<Size, { chats: number; perChat: number; seconds: number }> = {
  full: { chats: 200, perChat: 10, seconds: 6 },
  smoke: { chats: 4, perChat: 2, seconds: 10 },
};

interface Latency {
  times: number[];
  throughput: number;
  answers: string[];
}

/** Sends `perChat` commands from each of `chats` group chats, one at a time per chat; times each to its answer. */
async function drive(fake: FakeTelegram, plan: { chats: number; perChat: number; seconds: number }, text: (i: number) => string): Promise<Latency> {
  const deadline = new Deadline(plan.seconds * 1000);
  const waiting = new Map<string, (answer: { at: number; text: string }) => void>();
  let seen = fake.sent.length;
  // One scan of the new messages at each change at the fake, for all chats, instead of a waiter
  // per chat rescanning the list.
  const unsubscribe = fake.onChange(() => {
    const sent = fake.sent;
    for (; seen < sent.length; seen++) {
      const s = sent[seen];
      const resolve = s && waiting.get(s.chatId);
      if (s && resolve) {
        waiting.delete(s.chatId);
        resolve({ at: s.at, text: s.text });
      }
    }
  });
  const times: number[] = [];
  const answers: string[] = [];
  const started = Date.now();
  let last = started;
  try {
    await Promise.all(
      Array.from({ length: plan.chats }, async (_, c) => {
        const chat: Chat = groupChat({ id: -(300_000 + c) });
        const users = [fakeUser({ id: 400_000 + c * 2 }), fakeUser({ id: 400_001 + c * 2 })];
        for (let k = 0; k < plan.perChat && !deadline.passed(); k++) {
          const answered = new Promise<{ at: number; text: string }>((resolve) => waiting.set(String(chat.id), resolve));
          const sentAt = Date.now();
          fake.sendText(chat, text(c * plan.perChat + k), { from: users[k % 2] });
          const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ANSWER_TIMEOUT_MS).unref());
          const answer = await Promise.race([answered, timeout]);
          if (answer === undefined) return;
          times.push(answer.at - sentAt);
          answers.push(answer.text);
          last = Math.max(last, answer.at);
        }
      }),
    );
  } finally {
    unsubscribe();
  }
  return { times, throughput: times.length / Math.max(0.001, (last - started) / 1000), answers };
}

interface Run extends Latency {
  /** Answers that carried no price. */
  errors: number;
  /** Requests the sandbox served while answering: 0 when every answer came from the cache. */
  upstream: number;
  /** Commands the bot sent to Redis while answering, by name; empty without Redis. */
  redisCalls: Map<string, number>;
}

/** How a cache read is named in the counts of `countSent`. */
const CACHE_READ = "cache GET";

/**
 * Counts what `redis` sends, by command name (a read of a cache entry as CACHE_READ), as it is
 * sent: the bot's own requests (the server's INFO commandstats would also count what its
 * scripts run inside).
 */
function countSent(redis: SharedRedis): Map<string, number> {
  const sent = new Map<string, number>();
  const send = redis.client.sendCommand.bind(redis.client);
  redis.client.sendCommand = (command, stream) => {
    const name = command.name === "get" && String(command.args[0]).startsWith(`${KEY_PREFIX}cache:`) ? CACHE_READ : command.name.toUpperCase();
    sent.set(name, (sent.get(name) ?? 0) + 1);
    return send(command, stream);
  };
  return sent;
}

function since(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [name, n] of after) if (n > (before.get(name) ?? 0)) delta.set(name, n - (before.get(name) ?? 0));
  return delta;
}

/**
 * The real bot answering `plan`. With `redisUrl` its cache, command budgets and blocked chats
 * live in that Redis, wired as REDIS_URL wires them; else in process.
 */
async function chainpulse(plan: { chats: number; perChat: number; seconds: number }, redisUrl?: string): Promise<Run> {
  const silent = pino({ level: "silent" });
  const redis = redisUrl === undefined ? undefined : await connectRedis({ url: redisUrl, log: silent });
  if (redis !== undefined && !redis.isUp()) {
    await redis.close();
    // On its in-process fallbacks the bot would answer, and the row would measure no Redis at all.
    throw new Error(`Redis at ${redisUrl ?? ""} did not answer`);
  }
  const sent = redis === undefined ? new Map<string, number>() : countSent(redis);
  const sandbox = await startSandbox({ seed: 1, time: T0 });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key } });
  // The clock stands still so that every price asked stays cached for the whole run.
  const now = (): number => T0;
  const market = createCachedMarket(client, { now, ...(redis === undefined ? {} : { store: createRedisCacheStore({ redis }) }) });
  const harness = await coreOver(market, now, { budget: { redis } });
  const fake = await startFakeTelegram({ maxPollMs: 1_000 });
  const adapter = createTelegramAdapter({
    token: fake.token, apiRoot: fake.apiRoot, core: harness.core, logger: silent, botInfo: fake.me, pollTimeoutSeconds: 1, redis,
  });
  try {
    const ids = workloadTokens(sandbox.market.tokens, TOKENS).map((t) => t.id);
    for (const [i, id] of ids.entries()) await harness.core.handleText(chatContext("-1", `warm${i}`), `/price ${id}`);
    await adapter.start();
    const served = sandbox.stats().total;
    const sentBefore = new Map(sent);
    const result = await drive(fake, plan, (i) => `/price ${ids[i % ids.length] ?? ""}`);
    const calls = since(sentBefore, sent);
    const errors = result.answers.filter((a) => !a.includes("$")).length;
    return { ...result, errors, upstream: sandbox.stats().total - served, redisCalls: calls };
  } finally {
    await adapter.stop();
    await fake.close();
    await harness.close();
    await redis?.close();
    await client.close();
    await sandbox.close();
  }
}

async function bare(plan: { chats: number; perChat: number; seconds: number }): Promise<Latency> {
  const fake = await startFakeTelegram({ maxPollMs: 1_000 });
  const bot = new Bot(fake.token, { client: { apiRoot: fake.apiRoot }, botInfo: fake.me });
  bot.command("price", (ctx) => ctx.reply("price"));
  const runner = runBot(bot, { runner: { fetch: { timeout: 1 }, silent: true }, sink: { concurrency: 500 } });
  try {
    return await drive(fake, plan, () => "/price pepe");
  } finally {
    if (runner.isRunning()) await runner.stop();
    await fake.close();
  }
}

/** What each answer cost in Redis, e.g. "3 cache GET, 1 DEL": commands per answer by name, most first. */
function perAnswer(calls: ReadonlyMap<string, number>, answers: number): string {
  return [...calls]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${formatNumber(n / Math.max(1, answers))} ${name}`)
    .join(", ");
}

/** Runs the benchmark at `size`. */
export async function run(size: Size): Promise<BenchResult> {
  const started = performance.now();
  const plan = PLAN[size];
  const ours = await chainpulse(plan);
  const engine = await startRedis();
  const shared = await chainpulse(plan, engine.url).finally(() => engine.stop());
  const base = await bare(plan);
  const p50 = percentile(ours.times, 0.5);
  const baseP50 = percentile(base.times, 0.5);
  const ratio = p50 / Math.max(1, baseP50);
  const sharedP50 = percentile(shared.times, 0.5);
  const redisPerAnswer = [...shared.redisCalls.values()].reduce((a, b) => a + b, 0) / Math.max(1, shared.times.length);
  const notes: string[] = [];
  if (ours.errors > 0) notes.push(`${ours.errors} answers carried no price.`);
  if (shared.errors > 0) notes.push(`With the state in Redis, ${shared.errors} answers carried no price.`);
  if (!(ratio <= 1.25)) {
    notes.push(
      `chainpulse's p50 is ${ratio.toFixed(2)}× the bare bot's: per command it parses and resolves the token, takes the budget, reads the cache, ` +
        "renders the reply to HTML with a keyboard (and stores its button actions), all on the event loop that also serves the fake and the driver here.",
    );
  }
  notes.push(
    `With the state in Redis the bot sent ${formatNumber(redisPerAnswer)} Redis commands per answer (${perAnswer(shared.redisCalls, shared.times.length)}) ` +
      `and the p50 went from ${formatNumber(p50)} ms in process to ${formatNumber(sharedP50)} ms.`,
  );
  return {
    name: "latency",
    title: "1. Command latency through Telegram",
    setup:
      `${(plan.chats * plan.perChat).toLocaleString("en-US")} \`/price <id>\` commands over ${TOKENS} cached tokens from ${plan.chats} group chats (2 users each), ` +
      "each chat sending its next command when the last is answered; latency is from the update being queued at the fake to the answer arriving there " +
      "(whole milliseconds), through long polling, the @grammyjs/runner, the adapter, the core and the warm cache (clock pinned so nothing expires). " +
      "Baseline: a bare grammY bot on the same runner and fake replying a constant string. " +
      "The \"state in Redis\" rows drive the same bot, in the same run, with its cache, command budgets and blocked chats in a throw-away local " +
      "redis-server, wired as REDIS_URL wires them; their baseline column is chainpulse with that state in process (the rows above). " +
      "Redis commands are counted as the bot sends them during the drive, upstream calls by the sandbox.",
    figures: [
      { metric: "answers", unit: "", value: ours.times.length, baseline: base.times.length },
      { metric: "p50 latency", unit: "ms", value: p50, baseline: baseP50 },
      { metric: "p50 vs baseline", unit: "×", value: ratio, target: { text: "≤ 1.25", met: ratio <= 1.25 } },
      { metric: "p99 latency", unit: "ms", value: percentile(ours.times, 0.99), baseline: percentile(base.times, 0.99) },
      { metric: "throughput", unit: "cmd/s", value: ours.throughput, baseline: base.throughput },
      { metric: "upstream calls while answering", unit: "", value: ours.upstream },
      { metric: "state in Redis: answers", unit: "", value: shared.times.length, baseline: ours.times.length },
      { metric: "state in Redis: p50 latency", unit: "ms", value: sharedP50, baseline: p50 },
      { metric: "state in Redis: p50 vs in process", unit: "×", value: sharedP50 / Math.max(1, p50) },
      { metric: "state in Redis: p99 latency", unit: "ms", value: percentile(shared.times, 0.99), baseline: percentile(ours.times, 0.99) },
      { metric: "state in Redis: throughput", unit: "cmd/s", value: shared.throughput, baseline: ours.throughput },
      { metric: "state in Redis: Redis commands sent per answer", unit: "", value: redisPerAnswer },
      { metric: "state in Redis: cache reads from Redis per answer", unit: "", value: (shared.redisCalls.get(CACHE_READ) ?? 0) / Math.max(1, shared.times.length) },
      { metric: "state in Redis: upstream calls while answering", unit: "", value: shared.upstream, baseline: ours.upstream },
    ],
    notes,
    elapsedMs: performance.now() - started,
  };
}

export const latency: Benchmark = {
  name: "latency",
  title: "1. Command latency through Telegram",
  targets:
    "A cached `/price` should feel as quick as the platform allows: chainpulse's median within 1.25× a bot that does no work at all. " +
    "The Redis rows have no target: they tell what sharing the state between processes costs a cached command.",
  // Three drives, each bounded, plus starting two sandboxes and Redis and warming two caches.
  limitSeconds: 3 * (PLAN.full.seconds + ANSWER_TIMEOUT_MS / 1000) + 8,
  run,
};
