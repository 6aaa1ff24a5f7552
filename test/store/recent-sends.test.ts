/**
 * What a process starting after a kill reads of the minute before it: every kind's sends to a
 * platform that left (or may have) in that minute, and the Telegram pace that counts them, so a
 * group sent 20 messages just before the kill gets none more until its minute is over.
 */
import pino from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import { createTelegramDigestQueue, lastMinuteSends, telegramPaceLedger } from "../../src/digest/platform-queues.js";
import type { Store } from "../../src/store/types.js";
import { virtualClock } from "../digest/virtual-clock.js";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();
/** The moment the new process starts. */
const T = 1_800_000_000_000;
const log = pino({ level: "silent" });

describe.each(ENGINES)("the sends of the last minute on %s", (engine) => {
  let db: TestDatabase;
  let store: Store;
  beforeEach(async () => {
    db = await engines.database(engine);
    store = await db.open();
  });

  const buyPost = (chatId: string, key: string, state: string, at: number, platform = "telegram") =>
    `INSERT INTO buy_messages (platform, chat_id, post_key, token_id, kind, tx_time, payload, queued_at, state, updated_at)
     VALUES ('${platform}', '${chatId}', '${key}', 'pepe-eth', 'post', 0, '{}', ${at - 5_000}, '${state}', ${at});`;

  it("are every kind's rows whose request left in it, by chat and when: not those queued, expired, older or on another platform", async () => {
    const digest = await store.subscriptions.upsertSubscription(
      { platform: "telegram", chatId: "-1", chain: "eth", cron: "* * * * *", timezone: "UTC", label: "every 1m", intervalMinutes: 1, topN: 5 },
      T - 86_400_000,
    );
    await db.exec(`
      INSERT INTO digest_deliveries (subscription_id, slot, state, updated_at) VALUES (${digest.id}, ${T - 60_000}, 'delivered', ${T - 10_000});
      INSERT INTO alert_firings (alert_id, platform, chat_id, kind, payload, state, fired_at, updated_at)
        VALUES (1, 'telegram', '-2', 'fired', '{}', 'resent', ${T - 30_000}, ${T - 20_000}),
               (2, 'telegram', '-2', 'fired', '{}', 'expired', ${T - 30_000}, ${T - 15_000});
      INSERT INTO launch_posts (platform, chat_id, token_id, kind, chain, payload, queued_at, state, updated_at)
        VALUES ('telegram', '-3', 'a-solana', 'token', 'solana', '{}', ${T - 40_000}, 'failed', ${T - 30_000});
      ${buyPost("-1", "k1", "sending", T - 5_000)}
      ${buyPost("-1", "k2", "queued", T - 1_000)}
      ${buyPost("-1", "k3", "delivered", T - 61_000)}
      ${buyPost("900", "k4", "delivered", T - 2_000, "discord")}
    `);
    const sends = await lastMinuteSends(store, "telegram", log, T);
    expect([...sends].sort((a, b) => a.at - b.at)).toEqual([
      { chatId: "-3", at: T - 30_000 },
      { chatId: "-2", at: T - 20_000 },
      { chatId: "-1", at: T - 10_000 },
      { chatId: "-1", at: T - 5_000 },
    ]);
  });

  it("hold a group sent 20 in the minute before a restart until its minute is over, while another group goes at once", async () => {
    await db.exec(Array.from({ length: 20 }, (_, i) => buyPost("-100", `k${i}`, "delivered", T - 50_000 + i * 1_000)).join("\n"));
    const clock = virtualClock(T);
    const sentAt = new Map<string, number>();
    const queue = createTelegramDigestQueue({
      ratePerSecond: 25, ...clock, ledger: telegramPaceLedger({ ratePerSecond: 25, sent: await lastMinuteSends(store, "telegram", log, T) }),
    });
    await Promise.all(
      ["-100", "-200"].map((chatId) => queue.push({ chatId, deadline: Infinity, send: async () => (sentAt.set(chatId, clock.now()), { kind: "delivered" }) })),
    );
    expect(sentAt.get("-200")).toBeLessThan(T + 1_000);
    // The first of the 20 counts until a minute after it left.
    expect(sentAt.get("-100")).toBeGreaterThanOrEqual(T + 10_000);
  });
});
