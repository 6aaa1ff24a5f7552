import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Chat, Message } from "grammy/types";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import { type Harness, startHarness } from "./harness.js";

/** mulberry32: a seeded generator, so a failure replays. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = ["<", ">", "&", '"', "'", "&amp;", "<b>", "</pre>", "\n", "\u202e", "\u0007", "🐸", "𝕏", "\ud83d", "@", "/", "0x", " ", "_", "a", "Z", "9", "é"];
/** Names every plain JavaScript object answers to, typed where a chain, interval, schedule or setting goes. */
const BUILT_IN = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"];
const WORDS = ["pepe", "eth", "bsc", "1h", "every", "chain", "timezone", "on", ...BUILT_IN];
const COMMANDS = ["price", "token", "holders", "search", "risk", "help", "nope", "autodetect", "chart", "trending", "settings", "top", "constructor"];
const UNKNOWN = "nope";

describe("Telegram adapter on the real core under 1,000 fuzzed messages", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({});
  });
  afterAll(async () => h.close());

  // A thousand answers take as long as the machine is busy: the bounds are for a broken run only.
  it("stays up and answers every command addressed to it exactly once, and nothing else", { timeout: 90_000 }, async () => {
    const random = rng(20261122);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const junk = (max: number): string =>
      Array.from({ length: Math.floor(random() * max) }, () => (random() < 0.5 ? ` ${pick(WORDS)}` : pick(NASTY))).join("");
    const chats: Chat[] = [...Array.from({ length: 8 }, () => privateChat(fakeUser())), ...Array.from({ length: 8 }, () => groupChat())];
    const expectAnswer: Message[] = [];
    const expectSilence: Message[] = [];
    for (let i = 0; i < 1000; i++) {
      const chat = pick(chats);
      const roll = random();
      if (roll < 0.6) {
        const bot = random() < 0.2 ? `@${h.fake.me.username}` : "";
        const name = pick(COMMANDS);
        const sent = h.fake.sendText(chat, `/${name}${bot} ${junk(12)}`.trimEnd());
        // A group may hold other bots: an unknown command there is answered only when it names this one.
        const addressed = (name !== UNKNOWN && name !== "constructor") || chat.type === "private" || bot !== "";
        (addressed ? expectAnswer : expectSilence).push(sent);
      } else if (roll < 0.7) {
        expectSilence.push(h.fake.sendText(chat, `/${pick(COMMANDS)}@another_bot ${junk(6)}`));
      } else {
        expectSilence.push(h.fake.sendText(chat, `x${junk(40)}`));
      }
    }
    const pending = new Set(expectAnswer.map((m) => `${m.chat.id}:${m.message_id}`));
    await h.fake.waitForSent(
      (s) => {
        pending.delete(`${s.chatId}:${s.replyTo}`);
        return pending.size === 0;
      },
      { timeoutMs: 80_000 },
    );
    for (const m of expectAnswer) expect(h.fake.repliesTo(m), m.text).toHaveLength(1);
    for (const m of expectSilence) expect(h.fake.repliesTo(m), m.text).toEqual([]);
    expect(h.fake.calls.filter((c) => !c.ok && c.method !== "getUpdates")).toEqual([]);
    // Not one answer took the bug path: every reply is the answer or the user's mistake.
    expect(h.fake.sent.filter((s) => s.text.includes("Something went wrong on my side")).map((s) => s.text)).toEqual([]);
    expect(h.adapter.isReady()).toBe(true);
  });
});
