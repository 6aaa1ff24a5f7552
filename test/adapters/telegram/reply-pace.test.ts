/**
 * Replies take their turns from the bot's one pace (adapters/telegram/reply-pace.ts), the
 * ledger the digest and alert queue shares: the real adapter on the fake Bot API, by webhook
 * and by long polling, with the pace on a clock the test moves (the pace's waits end when the
 * test says, never by wall time).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { memoryPaceLedger, type PaceLedger, type PaceOptions } from "../../../src/digest/pace-ledger.js";
import { fakeUser, groupChat, privateChat } from "../../fakes/telegram-api.js";
import type { WebhookDelivery } from "../../fakes/telegram-webhook.js";
import { deferred, type Deferred } from "../../deferred.js";
import { type Harness, startHarness } from "./harness.js";

const SECRET = "pace-secret-123";
const T0 = 1_800_000_000_000;

/** The pace's clock: time stands still until the test moves it; each wait of the pace is held until then. */
function pausedClock() {
  let t = T0;
  const naps: { ms: number; done: Deferred<void> }[] = [];
  const napped = deferred<void>();
  let onNap = napped;
  return {
    now: () => t,
    sleep: (ms: number): Promise<void> => {
      const done = deferred<void>();
      naps.push({ ms, done });
      onNap.resolve();
      return done.promise;
    },
    /** Resolves once the pace waits (again, after `next()`). */
    waiting: () => onNap.promise,
    /** The longest wait asked so far. */
    longest: () => Math.max(0, ...naps.map((n) => n.ms)),
    /** Moves the clock by `ms` and ends every wait. */
    advance(ms: number): void {
      t += ms;
      onNap = deferred<void>();
      for (const n of naps.splice(0)) n.done.resolve();
    },
  };
}

/** The ledger, with every slot it gave: to which chat and at what time of the pace's clock. */
function recordingLedger(opts: PaceOptions): PaceLedger & { given: { chatId: string; at: number }[] } {
  const ledger = memoryPaceLedger(opts);
  const given: { chatId: string; at: number }[] = [];
  return {
    given,
    async take(chatIds, t, reserve) {
      const slot = await ledger.take(chatIds, t, reserve);
      if ("index" in slot) given.push({ chatId: chatIds[slot.index]!, at: t });
      return slot;
    },
    answered: (chatId, stamp, at) => ledger.answered(chatId, stamp, at),
    pause: (until) => ledger.pause(until),
    hold: (chatId, until) => ledger.hold(chatId, until),
  };
}

describe("Telegram replies and the bot's pace", () => {
  let h: Harness | undefined;
  let server: Server | undefined;
  let delivery: WebhookDelivery | undefined;
  afterEach(async () => {
    delivery?.stop();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await h?.close();
    h = undefined;
    server = undefined;
    delivery = undefined;
  });

  /** The real adapter by webhook on the fake, its replies paced by `ledger` on `clock`. */
  async function webhookBot(ledger: PaceLedger, clock: ReturnType<typeof pausedClock>): Promise<Harness> {
    h = await startHarness({
      adapter: { webhook: { url: "https://bot.example.test/", secret: SECRET }, pace: { ledger, now: clock.now, sleep: clock.sleep } },
    });
    const route = h.adapter.webhook!;
    server = createServer((req, res) => void route.handler(req, res));
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${route.path}`;
    delivery = h.fake.deliverByWebhook({ to: () => url });
    return h;
  }

  it("a reply whose slot a digest just took waits its turn and then rides in the webhook's answer, taking the slot after it", async () => {
    const clock = pausedClock();
    const ledger = recordingLedger({ ratePerSecond: 1 });
    const { fake } = await webhookBot(ledger, clock);
    // A digest took this second's slot.
    expect("index" in (await ledger.take(["digest-chat"], clock.now()))).toBe(true);
    const chat = privateChat(fakeUser());
    const ask = fake.sendText(chat, "/help");
    await clock.waiting();
    expect(clock.longest()).toBe(1000);
    expect(fake.calls.filter((c) => c.chatId === String(chat.id))).toEqual([]);
    expect(delivery!.attempts).toEqual([]);

    clock.advance(1000);
    const reply = await fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(reply.chatId).toBe(String(chat.id));
    const calls = fake.calls.filter((c) => c.chatId === String(chat.id));
    expect(calls.map((c) => `${c.method}${c.viaWebhook ? " in the answer" : ""}`)).toEqual(["sendMessage in the answer"]);
    expect(ledger.given).toEqual([
      { chatId: "digest-chat", at: T0 },
      { chatId: String(chat.id), at: T0 + 1000 },
    ]);
    // The reply counted: the next digest waits a second more.
    expect(await ledger.take(["digest-chat"], clock.now())).toEqual({ waitMs: 1000 });
  });

  it("a reply waiting for its group's next second keeps that second from the group's backlog of posts", async () => {
    const clock = pausedClock();
    const ledger = recordingLedger({ perChatPerMinute: 20, perChatSpacingMs: 1000 });
    const { fake } = await webhookBot(ledger, clock);
    const group = groupChat();
    // A buy post took this second of the group; more are queued behind it (posts leave 4 of the minute to replies).
    expect("index" in (await ledger.take([String(group.id)], clock.now(), 4))).toBe(true);
    const ask = fake.sendText(group, "/help");
    await clock.waiting();
    expect(clock.longest()).toBe(1000);
    // The next post asks first, as a backlog does the moment the second frees: the reply's hold keeps it out.
    expect("waitMs" in (await ledger.take([String(group.id)], T0 + 1000, 4))).toBe(true);
    clock.advance(1000);
    await fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(ledger.given.map((g) => g.at)).toEqual([T0, T0 + 1000]);
    // Once the reply has its slot, the hold is lifted: the posts go on a second later.
    expect(await ledger.take([String(group.id)], T0 + 2000, 4)).toMatchObject({ index: 0 });
  });

  it("a group at its 20 messages a minute holds its own reply, not another chat's", async () => {
    const clock = pausedClock();
    const ledger = recordingLedger({ perChatPerMinute: 20 });
    const { fake } = await webhookBot(ledger, clock);
    const group = groupChat();
    for (let i = 0; i < 20; i++) expect("index" in (await ledger.take([String(group.id)], clock.now()))).toBe(true);
    const inGroup = fake.sendText(group, "/help");
    await clock.waiting();
    expect(clock.longest()).toBe(60_000);
    const chat = privateChat(fakeUser());
    const inPrivate = fake.sendText(chat, "/help");
    await fake.waitForSent((s) => s.replyTo === inPrivate.message_id && s.chatId === String(chat.id));
    expect(fake.sent.filter((s) => s.chatId === String(group.id))).toEqual([]);

    clock.advance(60_000);
    await fake.waitForSent((s) => s.replyTo === inGroup.message_id && s.chatId === String(group.id));
    expect(fake.sent.filter((s) => s.chatId === String(group.id))).toHaveLength(1);
    expect(ledger.given.slice(20)).toEqual([
      { chatId: String(chat.id), at: T0 },
      { chatId: String(group.id), at: T0 + 60_000 },
    ]);
  });

  it("a 429 on a reply pauses the shared pace for its retry_after: the digests wait, and the reply goes again once, in a slot after the pause", async () => {
    const clock = pausedClock();
    const ledger = recordingLedger({ ratePerSecond: 1000 });
    h = await startHarness({ adapter: { pace: { ledger, now: clock.now, sleep: clock.sleep } } });
    const { fake } = h;
    fake.rateLimit({ method: "sendMessage", retryAfter: 1, times: 1 });
    const chat = privateChat(fakeUser());
    const ask = fake.sendText(chat, "/help");
    await fake.waitFor((c) => c.method === "sendMessage" && c.error?.error_code === 429);
    // auto-retry waits out the second; its second attempt asks the pace, still paused on its clock.
    await clock.waiting();
    expect(await ledger.take(["digest-chat"], clock.now())).toEqual({ waitMs: 1000 });
    expect(fake.sent).toEqual([]);

    clock.advance(1000);
    await fake.waitForSent((s) => s.replyTo === ask.message_id);
    expect(fake.sent.filter((s) => s.chatId === String(chat.id))).toHaveLength(1);
    expect(ledger.given.filter((g) => g.chatId === String(chat.id)).map((g) => g.at)).toEqual([T0, T0 + 1000]);
  });
});
