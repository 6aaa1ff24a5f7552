/**
 * Benchmark 1: command latency through Telegram. The real bot (the Telegram adapter long
 * polling the loopback fake Bot API, the core, the cache warm) answers `/price` from many
 * chats, each chat sending its next command once the last was answered. Baseline: a bare
 * grammY bot, polled by the same runner, replying a constant string on the same fake.
 */
import { run as runBot } from "@grammyjs/runner";
import { Bot } from "grammy";
import type { Chat } from "grammy/types";
import pino from "pino";
import { createTelegramAdapter } from "../src/adapters/telegram/adapter.js";
import { createCachedMarket } from "../src/cache/cached-market.js";
import { MarketClient } from "../src/market/client.js";
import { startSandbox } from "../src/sandbox/index.js";
import { fakeUser, groupChat, startFakeTelegram, type FakeTelegram } from "../test/fakes/telegram-api.js";
import { Deadline, percentile } from "./measure.js";
import { chatContext, coreOver, workloadTokens } from "./workload.js";
import type { BenchResult, Benchmark, Size } from "./types.js";

const TOKENS = 20;
const T0 = Date.UTC(2026, 10, 22, 12, 0);
/** A command not answered within this is given up on (it counts as no answer). */
const ANSWER_TIMEOUT_MS = 10_000;
/** `seconds` bounds each of the two drives; a command sent just before it may wait ANSWER_TIMEOUT_MS more. */
const PLAN: Record<Size, { chats: number; perChat: number; seconds: number }> = {
  full: { chats: 200, perChat: 10, seconds: 15 },
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
  // One scan of new messages for all chats, instead of a waiter per chat rescanning the list.
  const watcher = setInterval(() => {
    const sent = fake.sent;
    for (; seen < sent.length; seen++) {
      const s = sent[seen];
      const resolve = s && waiting.get(s.chatId);
      if (s && resolve) {
        waiting.delete(s.chatId);
        resolve({ at: s.at, text: s.text });
      }
    }
  }, 1);
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
    clearInterval(watcher);
  }
  return { times, throughput: times.length / Math.max(0.001, (last - started) / 1000), answers };
}

async function chainpulse(plan: { chats: number; perChat: number; seconds: number }): Promise<Latency & { errors: number }> {
  const sandbox = await startSandbox({ seed: 1, time: T0 });
  const client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key } });
  // The clock stands still so that every price asked stays cached for the whole run.
  const now = (): number => T0;
  const harness = await coreOver(createCachedMarket(client, { now }), now);
  const fake = await startFakeTelegram({ maxPollMs: 1_000 });
  const adapter = createTelegramAdapter({
    token: fake.token, apiRoot: fake.apiRoot, core: harness.core, logger: pino({ level: "silent" }), botInfo: fake.me, pollTimeoutSeconds: 1,
  });
  try {
    const ids = workloadTokens(sandbox.market.tokens, TOKENS).map((t) => t.id);
    for (const [i, id] of ids.entries()) await harness.core.handleText(chatContext("-1", `warm${i}`), `/price ${id}`);
    await adapter.start();
    const result = await drive(fake, plan, (i) => `/price ${ids[i % ids.length] ?? ""}`);
    const errors = result.answers.filter((a) => !a.includes("$")).length;
    return { ...result, errors };
  } finally {
    await adapter.stop();
    await fake.close();
    await harness.close();
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

/** Runs the benchmark at `size`. */
export async function run(size: Size): Promise<BenchResult> {
  const started = performance.now();
  const plan = PLAN[size];
  const ours = await chainpulse(plan);
  const base = await bare(plan);
  const p50 = percentile(ours.times, 0.5);
  const baseP50 = percentile(base.times, 0.5);
  const ratio = p50 / Math.max(1, baseP50);
  const notes: string[] = [];
  if (ours.errors > 0) notes.push(`${ours.errors} answers carried no price.`);
  if (!(ratio <= 1.25)) {
    notes.push(
      `chainpulse's p50 is ${ratio.toFixed(2)}× the bare bot's: per command it parses and resolves the token, takes the budget, reads the cache, ` +
        "renders the reply to HTML with a keyboard (and stores its button actions), all on the event loop that also serves the fake and the driver here.",
    );
  }
  return {
    name: "latency",
    title: "1. Command latency through Telegram",
    setup:
      `${(plan.chats * plan.perChat).toLocaleString("en-US")} \`/price <id>\` commands over ${TOKENS} cached tokens from ${plan.chats} group chats (2 users each), ` +
      "each chat sending its next command when the last is answered; latency is from the update being queued at the fake to the answer arriving there " +
      "(whole milliseconds), through long polling, the @grammyjs/runner, the adapter, the core and the warm cache (clock pinned so nothing expires). " +
      "Baseline: a bare grammY bot on the same runner and fake replying a constant string.",
    figures: [
      { metric: "answers", unit: "", value: ours.times.length, baseline: base.times.length },
      { metric: "p50 latency", unit: "ms", value: p50, baseline: baseP50 },
      { metric: "p50 vs baseline", unit: "×", value: ratio, target: { text: "≤ 1.25", met: ratio <= 1.25 } },
      { metric: "p99 latency", unit: "ms", value: percentile(ours.times, 0.99), baseline: percentile(base.times, 0.99) },
      { metric: "throughput", unit: "cmd/s", value: ours.throughput, baseline: base.throughput },
    ],
    notes,
    elapsedMs: performance.now() - started,
  };
}

export const latency: Benchmark = {
  name: "latency",
  title: "1. Command latency through Telegram",
  targets: "A cached `/price` should feel as quick as the platform allows: chainpulse's median within 1.25× a bot that does no work at all.",
  // Two drives, each bounded, plus starting the sandbox and warming the cache.
  limitSeconds: 2 * (PLAN.full.seconds + ANSWER_TIMEOUT_MS / 1000) + 5,
  run,
};
