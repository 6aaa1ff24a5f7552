/** 10,000 generated messages: every one gets a reply or silence, none a crash or an unhandled rejection. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { renderText } from "../../src/adapters/console/render.js";
import type { ChatContext } from "../../src/core/command.js";
import { digestCommands } from "../../src/digest/commands.js";
import { startWorld, type Bot, type World } from "./sandbox-world.js";

/** Names every plain JavaScript object answers to: typed where a chain, interval or schedule goes. */
const BUILT_IN_NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__defineGetter__", "prototype"];

let world: World;
let bot: Bot;

beforeAll(async () => {
  world = await startWorld({ tokenCount: 400 });
  bot = await world.fresh({ extraCommands: digestCommands({ maxPerChat: 10, minIntervalMinutes: 15 }) });
});
afterAll(async () => {
  await world.close();
});

/** mulberry32: a seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it("answers 10,000 generated messages without a crash or an unhandled rejection", async () => {
  const random = rng(20261122);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const market = world.sandbox.market;
  const names = [...bot.core.commands.flatMap((c) => [c.name, ...(c.aliases ?? [])]), "", "PRICE", "pric", "price@bot", "💥", "a".repeat(40)];
  const words = [
    ...market.tokens.slice(0, 30).flatMap((t) => [t.symbol, t.id, t.address]),
    "pepe", "eth", "bsc", "solana", "0", "-1", "99999999999", "1e400", "NaN", "2", "25", "hot", "meme", "chain", "timezone",
    "autodetect", "on", "Europe/Berlin", "\"quoted words\"", "'unclosed", "“curly”", "\u0000", "\u001b[31m", "\u202e",
    "https://dexscreener.com/eth/0xdead", "0x" + "g".repeat(40), "0x123", "T" + "1".repeat(33), "<b>x</b>", "@everyone",
    "x".repeat(300), "x".repeat(301), ",", "''", "\"\"", "/", "\\", "🙂", "\n", "\t", "every", "daily", "top",
    ...BUILT_IN_NAMES,
  ];
  const messages = Array.from({ length: 10_000 }, () => {
    const n = random() < 0.02 ? 60 : Math.floor(random() * 5);
    return `/${pick(names)} ${Array.from({ length: n }, () => pick(words)).join(pick([" ", "  ", ","]))}`;
  });
  // An unhandled rejection fails the run by itself: vitest reports every one it sees in the
  // file's process, whenever it comes, so nothing here waits for one to surface.
  const chat: ChatContext = { platform: "telegram", chatId: "fuzz", userId: "fuzz", isPrivate: false, isAdmin: async () => true };
  // Spread over enough users and chats that the budget lets most through; the budget has its own tests.
  const metered = (i: number): ChatContext => ({ ...chat, userId: `u${i % 2000}`, chatId: `c${i % 1000}` });
  let answered = 0;
  for (let i = 0; i < messages.length; i += 50) {
    const batch = messages.slice(i, i + 50);
    const replies = await Promise.all(
      batch.map((m, j) => {
        const k = i + j;
        if (k % 3 === 0) return bot.core.detect(metered(k), m.slice(1));
        if (k % 3 === 1) return bot.core.run(metered(k), m.slice(1).split(" ")[0] ?? "", m.split(" ").slice(1));
        return bot.core.handleText(metered(k), m);
      }),
    );
    for (const r of replies) {
      if (r === null) continue;
      answered++;
      const text = renderText(r);
      expect(text).not.toMatch(/ at .*\.(ts|js):\d+|TypeError|ReferenceError/);
      expect(r.error === "internal" ? r.title : "").not.toBe("Something went wrong on my side; it has been logged.");
    }
  }
  expect(answered).toBeGreaterThan(6_000);
}, 60_000);

/** An admin of a group, one per message so the budget never answers instead. */
const admin = (text: string): ChatContext => ({ platform: "telegram", chatId: text, userId: text, isPrivate: false, isAdmin: async () => true });

it.each([
  "/token pepe constructor",
  "/price pepe __proto__, wif",
  "/chart pepe toString",
  "/subscribe eth every constructor",
  "/trending constructor",
  "/holders pepe constructor",
  "/settings constructor on",
  "/settings chain __proto__",
  "/settings timezone constructor",
  "/top toString",
  "/unsubscribe hasOwnProperty",
  "/constructor",
])("answers %j with a sentence naming the mistaken word, not the bug path", async (text) => {
  const reply = await bot.core.handleText(admin(text), text);
  if (reply === null) throw new Error("no answer");
  expect(reply.error, reply.title).not.toBe("internal");
  const word = BUILT_IN_NAMES.find((w) => text.includes(w)) ?? "";
  expect(renderText(reply).toLowerCase()).toContain(word.toLowerCase());
});
