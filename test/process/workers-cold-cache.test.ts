/**
 * Three `chainpulse start` workers of one bot on real PostgreSQL and Redis, from a cold cache,
 * at the plan's 5 requests a second: 120 chats ask `/price`, `/token` and `/trending eth` at
 * 30 updates a second. The market answers in milliseconds, so nearly every answer carries
 * prices once the workers share one market as one bot does: a key asked by many chats is one
 * upstream call for all workers, and what a person cannot wait for still fills the cache.
 */
import type { Chat, Message } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workloadTokens } from "../../bench/workload.js";
import { fakeUser, privateChat } from "../fakes/telegram-api.js";
import { startWorkersWorld, type WorkersWorld } from "./workers-world.js";
import { until } from "./until.js";

const WORKERS = 3;
const RPS = 5;
const CHATS = 120;
/** Updates a second the chats send together. */
const UPDATES_PER_SECOND = 30;
/** Distinct tokens asked about: a cold cache has each one's detail, chart and price to fetch. */
const TOKENS = 8;
/** Answers that must carry prices. */
const PRICED_SHARE = 0.9;
/** Calls of `/trending eth`'s list that reach the market for 120 askers over about 20 s (fresh 60 s). */
const TRENDING_CALLS_MAX = 3;
/** Three node processes, 480 updates over 16 s and their answers, on a busy 2-core machine. */
const SCENARIO_MS = 180_000;

let world: WorkersWorld;

beforeAll(async () => {
  world = await startWorkersWorld({ workers: WORKERS, rps: RPS, telegramRate: 30 });
}, SCENARIO_MS);

afterAll(() => world?.close(), SCENARIO_MS);

describe("three workers starting on a cold cache at 5 requests a second", () => {
  it(
    `answer at least ${PRICED_SHARE * 100} % of /price, /token and /trending with prices; /trending eth asked ${CHATS} times is at most ${TRENDING_CALLS_MAX} calls`,
    async () => {
      const ids = workloadTokens(world.sandbox.market.tokens, TOKENS).map((t) => t.id);
      const chats: Chat[] = Array.from({ length: CHATS }, () => privateChat(fakeUser()));
      const script = (i: number): string[] => {
        const id = ids[i % ids.length] ?? "";
        const other = ids[(i + 3) % ids.length] ?? "";
        return ["/trending eth", `/price ${id}`, `/token ${id}`, `/price ${id} ${other}`];
      };
      const asked: { message: Message; text: string }[] = [];
      const before = world.sandbox.stats().byEndpoint;
      // Round by round every chat sends its next command, 30 updates a second.
      for (let round = 0; round < 4; round++) {
        for (const [i, chat] of chats.entries()) {
          const text = script(i)[round] ?? "";
          asked.push({ message: world.tg.sendText(chat, text), text });
          if (asked.length % UPDATES_PER_SECOND === 0) await new Promise((r) => setTimeout(r, 1000));
        }
      }
      const replyOf = (m: Message) => world.tg.sent.find((s) => s.chatId === String(m.chat.id) && s.replyTo === m.message_id);
      await until(() => asked.every((a) => replyOf(a.message) !== undefined), () => `every update answered (${asked.filter((a) => replyOf(a.message) !== undefined).length} of ${asked.length})`, SCENARIO_MS - 40_000);

      const after = world.sandbox.stats().byEndpoint;
      const calls = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
      const share = (name: string) => {
        const all = asked.filter((a) => a.text.startsWith(name));
        return all.filter((a) => (replyOf(a.message)?.text ?? "").includes("$")).length / all.length;
      };
      const timeouts = world.workers.reduce((n, w) => n + (w.proc.stdout().match(/"kind":"timeout"/g) ?? []).length, 0);
      const unpriced = asked.map((a) => replyOf(a.message)?.text ?? "").filter((text) => !text.includes("$"));
      const seen = `priced: /price ${share("/price")}, /token ${share("/token")}, /trending ${share("/trending")}; trending calls ${calls("trending")}; ` +
        `timeouts logged ${timeouts}; market calls ${JSON.stringify(after)}; first unpriced: ${unpriced.slice(0, 3).join(" | ")}`;
      for (const name of ["/price", "/token", "/trending"]) expect(share(name), seen).toBeGreaterThanOrEqual(PRICED_SHARE);
      expect(calls("trending"), seen).toBeGreaterThan(0);
      expect(calls("trending"), seen).toBeLessThanOrEqual(TRENDING_CALLS_MAX);
      // The service answered every call in time: no call was reported as one it left unanswered.
      expect(timeouts, seen).toBe(0);
    },
    SCENARIO_MS,
  );
});
