/**
 * Three `chainpulse start` workers of one bot on real PostgreSQL and Redis, behind a
 * round-robin load balancer that the fake Bot API delivers its webhook to, on a sandbox whose
 * limiter refuses more than the plan's rate with 429.
 */
import type { Chat, Message } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeUser, privateChat } from "../fakes/telegram-api.js";
import { until as untilWithin } from "./until.js";
import { ready, startWorkersWorld, type WorkersWorld } from "./workers-world.js";

const WORKERS = 3;
const CHATS = 200;
const UPDATES_PER_CHAT = 5;
/** The market plan's rate: the sandbox refuses a sixth call in one second with 429. */
const RPS = 5;
/** Telegram's rate for the bot's digests, kept by all workers together. */
const TELEGRAM_RATE = 30;
/** Bound of each scenario: three node processes and 1,000 updates on a busy 2-core machine. */
const SCENARIO_MS = 150_000;
/** Chats sending in each round of the rolling restart's traffic, three messages each. */
const ROUND_CHATS = 40;
/** Bound of the rolling restart: three stops and three starts of a node process, with traffic. */
const ROLLING_MS = 240_000;

let world: WorkersWorld;

const until = (check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = SCENARIO_MS - 10_000): Promise<void> =>
  untilWithin(check, what, timeoutMs);

/** The bot's replies to the messages of `asked`'s chats, as chat id → the message ids they answer, in the order sent. */
function repliesByChat(asked: ReadonlyMap<string, readonly Message[]>): Map<string, number[]> {
  const replies = new Map<string, number[]>();
  for (const s of world.tg.sent) {
    if (s.replyTo === undefined || !asked.has(s.chatId)) continue;
    replies.set(s.chatId, [...(replies.get(s.chatId) ?? []), s.replyTo]);
  }
  return replies;
}

function answered(asked: ReadonlyMap<string, readonly Message[]>): number {
  return [...repliesByChat(asked).values()].reduce((n, r) => n + new Set(r).size, 0);
}

/** Replies to `asked`'s chats that rode in a webhook answer (each of these is one message). */
function ridingReplies(asked: ReadonlyMap<string, readonly Message[]>): number {
  return world.tg.calls.filter((c) => c.method === "sendMessage" && c.viaWebhook && c.ok && c.chatId !== undefined && asked.has(c.chatId)).length;
}

/**
 * Each reply to `asked`'s chats (one message each) rode in the answer that acknowledged its
 * update, or, having waited (for the bot's pace, the market) past the answer deadline, went by
 * API call once a delivery to its chat had been answered empty or given up: none went while an
 * answer a kill could cut off was still open, so none could be sent twice.
 */
function expectRiddenOrAfterAnswer(asked: ReadonlyMap<string, readonly Message[]>): void {
  const late = world.tg.calls.filter((c) => c.method === "sendMessage" && c.ok && !c.viaWebhook && c.chatId !== undefined && asked.has(c.chatId));
  const answeredBefore = (chatId: string, at: number) =>
    world.webhook.attempts.some((a) => a.chatId === chatId && a.at <= at && ((a.status === 200 && a.method === undefined) || a.status === 0));
  expect(late.filter((c) => !answeredBefore(c.chatId!, c.at))).toEqual([]);
  expect(ridingReplies(asked) + late.length).toBe([...asked.values()].reduce((n, m) => n + m.length, 0));
}

/** What is still unanswered, and what became of its deliveries: for a timeout's message. */
function unanswered(asked: ReadonlyMap<string, readonly Message[]>, what: string): () => string {
  return () => {
    const replies = repliesByChat(asked);
    const missing = [...asked].filter(([chatId, messages]) => messages.some((m) => !(replies.get(chatId) ?? []).includes(m.message_id)));
    const detail = missing.slice(0, 5).map(([chatId, messages]) => {
      const tries = world.webhook.attempts.filter((a) => a.chatId === chatId).map((a) => `${a.updateId}:${a.status}${a.method ? `:${a.method}` : ""}`);
      const calls = world.tg.calls.filter((c) => c.chatId === chatId).map((c) => `${c.method}${c.viaWebhook ? "(answer)" : ""}${c.ok ? "" : `(${c.error?.description ?? "open"})`}`);
      return `chat ${chatId} asked ${messages.map((m) => m.message_id).join(",")} answered ${(replies.get(chatId) ?? []).join(",")}; deliveries ${tries.join(" ")}; calls ${calls.join(" ")}`;
    });
    return `${what}: ${answered(asked)} answered, ${world.webhook.pending()} pending, ${missing.length} chats short; balancer ${JSON.stringify([...world.lb.statuses])}\n${detail.join("\n")}`;
  };
}

/** Every chat's replies answer its messages one to one, in the order it sent them: none missing, none twice. */
function expectAnsweredOnceInOrder(asked: ReadonlyMap<string, readonly Message[]>): void {
  const replies = repliesByChat(asked);
  for (const [chatId, messages] of asked) expect(replies.get(chatId) ?? []).toEqual(messages.map((m) => m.message_id));
  const sent = [...asked.values()].reduce((n, m) => n + m.length, 0);
  expect([...replies.values()].reduce((n, r) => n + r.length, 0)).toBe(sent);
}

beforeAll(async () => {
  world = await startWorkersWorld({ workers: WORKERS, rps: RPS, telegramRate: TELEGRAM_RATE });
}, SCENARIO_MS);

afterAll(() => world?.close(), SCENARIO_MS);

describe("three workers of one bot behind a load balancer", () => {
  it("set the webhook once, and each names itself and its engines on /readyz and its metrics", async () => {
    expect(world.tg.calls.filter((c) => c.method === "setWebhook")).toHaveLength(1);
    for (const w of world.workers) {
      const body = (await (await fetch(`http://127.0.0.1:${w.port}/readyz`)).json()) as { checks: Record<string, { ok: boolean; detail?: string }> };
      expect(body.checks.worker?.detail).toMatch(new RegExp(`^${w.id} (holds|waits for) telegram-webhook, (holds|waits for) digest-poster$`));
      expect(body.checks.store?.ok).toBe(true);
      expect(body.checks.redis).toEqual({ ok: true, detail: "shared state" });
      const metrics = await (await fetch(`http://127.0.0.1:${w.port}/metrics`)).text();
      expect(metrics).toContain(`worker="${w.id}"`);
    }
    const holders = await Promise.all(world.workers.map(async (w) => ((await (await fetch(`http://127.0.0.1:${w.port}/readyz`)).json()) as { checks: { worker: { detail: string } } }).checks.worker.detail));
    expect(holders.filter((d) => d.includes("holds telegram-webhook"))).toHaveLength(1);
    expect(holders.filter((d) => d.includes("holds digest-poster"))).toHaveLength(1);
  });

  it(
    `${CHATS * UPDATES_PER_CHAT} updates from ${CHATS} chats are each answered exactly once and in order per chat with a worker SIGKILLed mid-run; no 429 from the market`,
    async () => {
      const chats: Chat[] = Array.from({ length: CHATS }, () => privateChat(fakeUser()));
      const asked = new Map<string, Message[]>();
      for (let round = 0; round < UPDATES_PER_CHAT; round++) {
        for (const chat of chats) {
          const m = world.tg.sendText(chat, round % 2 === 0 ? "/help" : "/price pepe");
          asked.set(String(chat.id), [...(asked.get(String(chat.id)) ?? []), m]);
        }
      }
      const total = CHATS * UPDATES_PER_CHAT;
      const end = Date.now() + SCENARIO_MS - 10_000;
      await until(() => answered(asked) >= total / 3, unanswered(asked, "a third of the updates answered"), end - Date.now());
      const victim = world.workers[1]!;
      victim.proc.child.kill("SIGKILL");
      await victim.proc.exited;
      await until(() => answered(asked) >= total && world.webhook.pending() === 0, unanswered(asked, "every update answered"), end - Date.now());

      // The kill cut deliveries off mid-answer; Telegram delivered those again, and each reply
      // rode in the answer that acknowledged its update (or went after it), so none was sent twice.
      expect(world.webhook.attempts.some((a) => a.status === 502 || a.status === 0)).toBe(true);
      expectAnsweredOnceInOrder(asked);
      expectRiddenOrAfterAnswer(asked);
      expect(world.market.statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect(world.market.statuses.get(429) ?? 0).toBe(0);
      expect(world.tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
      // The load balancer spread the updates over every worker.
      expect(world.lb.served.size).toBe(WORKERS);
    },
    SCENARIO_MS,
  );


  it(
    `a rolling restart of all ${WORKERS} workers, one at a time with SIGTERM, while updates keep arriving: each update answered exactly once and in order per chat, each worker exiting 0, the webhook set once in all`,
    async () => {
      // Whichever worker an earlier scenario killed comes back first.
      for (const [i, w] of world.workers.entries()) {
        if (w.proc.child.exitCode !== null || w.proc.child.signalCode !== null) world.respawn(i);
      }
      await Promise.all(world.workers.map((w) => ready(w.port)));
      const asked = new Map<string, Message[]>();
      // Each round, chats new to the bot (a user's command budget is 10 a minute) send three
      // messages each, and the next round starts once every one was answered: updates are in
      // flight, a chat's queued behind one another, whenever a worker is told to stop.
      const send = (): number => {
        for (let i = 0; i < ROUND_CHATS; i++) {
          const chat = privateChat(fakeUser());
          asked.set(String(chat.id), ["/help", "/price pepe", "/help"].map((text) => world.tg.sendText(chat, text)));
        }
        return [...asked.values()].reduce((n, m) => n + m.length, 0);
      };
      let restarting = true;
      let rounds = 0;
      const traffic = (async () => {
        while (restarting) {
          const total = send();
          rounds += 1;
          await until(() => answered(asked) >= total, unanswered(asked, `round ${rounds} answered`));
        }
      })();
      const exits: { code: number | null; signal: NodeJS.Signals | null }[] = [];
      try {
        for (const [i, w] of world.workers.entries()) {
          w.proc.child.kill("SIGTERM");
          exits.push(await w.proc.exited);
          world.respawn(i);
          await ready(w.port);
        }
      } finally {
        restarting = false;
      }
      await traffic;
      await until(() => world.webhook.pending() === 0, "every delivery acknowledged");

      expect(exits).toEqual(Array.from({ length: WORKERS }, () => ({ code: 0, signal: null })));
      expect(rounds).toBeGreaterThanOrEqual(WORKERS);
      expectAnsweredOnceInOrder(asked);
      expect(ridingReplies(asked)).toBe([...asked.values()].reduce((n, m) => n + m.length, 0));
      expect(world.tg.calls.filter((c) => c.error?.error_code === 429)).toEqual([]);
      expect(world.market.statuses.get(429) ?? 0).toBe(0);
      // Each worker held the webhook's lease in turn, and found the webhook already set.
      expect(world.tg.calls.filter((c) => c.method === "setWebhook")).toHaveLength(1);
    },
    ROLLING_MS,
  );
});
