/**
 * One chat's replies in update order across two workers while the pace is saturated: two real
 * Telegram adapters by webhook on one fake Bot API, the fake delivering updates to them in turn
 * (as a round-robin load balancer does), their replies paced by one ledger and ordered by one
 * set of chat tickets on a real Redis. The pace runs on a clock the test moves, and when it moves
 * the worker that asked last is let go first, as a race between two workers may go.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramAdapter, type TelegramAdapter } from "../../../src/adapters/telegram/adapter.js";
import { redisChatOrder } from "../../../src/redis/chat-order.js";
import { redisPaceLedger } from "../../../src/redis/pace-ledger.js";
import { deferred, type Deferred } from "../../deferred.js";
import { useRedis } from "../../engines/redis.js";
import { fakeUser, privateChat } from "../../fakes/telegram-api.js";
import type { WebhookDelivery } from "../../fakes/telegram-webhook.js";
import { startHarness, type Harness } from "./harness.js";

const { link } = useRedis();

const SECRET = "order-secret-123";
/** The webhook's patience: a reply held by the pace longer goes after its update's answer. */
const ANSWER_WITHIN_MS = 200;

/** The pace's clock: still until moved; a move ends the waits the latest first. */
function pausedClock() {
  let t = 1_800_000_000_000;
  const naps: Deferred<void>[] = [];
  let napped = deferred<void>();
  return {
    now: () => t,
    sleep: (): Promise<void> => {
      const done = deferred<void>();
      naps.push(done);
      napped.resolve();
      return done.promise;
    },
    /** Resolves once the pace waits (again, after `advance`). */
    waiting: () => napped.promise,
    advance(ms: number): void {
      t += ms;
      napped = deferred<void>();
      for (const n of naps.splice(0).reverse()) n.resolve();
    },
  };
}

let h: Harness | undefined;
let second: TelegramAdapter | undefined;
const servers: Server[] = [];
let delivery: WebhookDelivery | undefined;
afterEach(async () => {
  delivery?.stop();
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise<void>((r) => s.close(() => r()));
    }),
  );
  await second?.stop();
  await h?.close();
  h = second = delivery = undefined;
});

describe("a chat's replies in update order across workers", () => {
  it("answers a chat's second update, taken by the other worker while the first's reply waits for the pace, after the first", async () => {
    const clock = pausedClock();
    const scope = "telegram:order-test";
    /** A worker's pace: the shared ledger (one second a message) and tickets, each on its own connection. */
    const pace = async () => {
      const redis = await link();
      return {
        ledger: redisPaceLedger({ redis, scope, ratePerSecond: 1 }),
        order: redisChatOrder({ redis, scope }),
        now: clock.now,
        sleep: clock.sleep,
      };
    };
    const webhook = { url: "https://bot.example.test/", secret: SECRET, answerWithinMs: ANSWER_WITHIN_MS };
    h = await startHarness({ adapter: { webhook, pace: await pace() } });
    const { fake } = h;
    second = createTelegramAdapter({ token: fake.token, apiRoot: fake.apiRoot, core: h.core, logger: pino({ level: "silent" }), webhook, pace: await pace() });
    await second.start();
    const urls: string[] = [];
    // Both updates answered by the workers (the answers written): a count that resolves at two.
    let answers = 0;
    const bothAnswered = deferred<void>();
    for (const adapter of [h.adapter, second]) {
      const route = adapter.webhook!;
      const server = createServer((req, res) => void route.handler(req, res).then(() => (answers += 1) === 2 && bothAnswered.resolve()));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      servers.push(server);
      urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}`);
    }
    let turn = 0;
    delivery = fake.deliverByWebhook({ to: () => urls[turn++ % urls.length]! });

    // A digest took this second's slot: every reply waits for the clock.
    const shared = await pace();
    expect("index" in (await shared.ledger.take(["digest-chat"], clock.now()))).toBe(true);
    const chat = privateChat(fakeUser());
    const first = fake.sendText(chat, "/help");
    const next = fake.sendText(chat, "/help");
    await clock.waiting();
    // The first update was answered without its reply; the second reached the other worker and was answered too.
    await bothAnswered.promise;
    expect(fake.sent.filter((s) => s.chatId === String(chat.id))).toEqual([]);

    clock.advance(1000);
    await fake.waitForSent((s) => s.replyTo !== undefined);
    await clock.waiting();
    clock.advance(1000);
    await fake.waitForSent((s) => s.replyTo === next.message_id);
    await fake.waitForSent((s) => s.replyTo === first.message_id);
    expect(fake.sent.filter((s) => s.chatId === String(chat.id)).map((s) => s.replyTo)).toEqual([first.message_id, next.message_id]);
  });
});
