/**
 * /chart through the real core on the demo wiring (sandbox market, worker renderer), and
 * end to end on both fake platforms: a photo with its caption in Telegram, an attachment
 * shown in the embed in Discord, and interval buttons that redraw in place.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { createDiscordAdapter } from "../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../src/adapters/types.js";
import { buildCore, type BuiltCore } from "../../src/app/build-core.js";
import { loadConfig } from "../../src/config.js";
import type { Reply } from "../../src/core/reply.js";
import { HOSTILE_TOKENS } from "../../src/sandbox/index.js";
import { OptionType, startFakeDiscord, type FakeDiscord, type FakeMessage } from "../fakes/discord-api.js";
import { fakeUser, privateChat } from "../fakes/telegram-api.js";
import { startHarness, type Harness } from "../adapters/telegram/harness.js";

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function dimensions(png: Uint8Array): { width: number; height: number } {
  const b = Buffer.from(png);
  expect(b.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function labels(reply: Reply): string[] {
  return reply.actions.flat().map((a) => a.label);
}

let built: BuiltCore;
let chatN = 0;
// A chat per call, so the command budget never speaks.
const chat = () => ({ ...CONSOLE_CHAT, platform: "telegram" as const, chatId: `c${++chatN}`, userId: `u${chatN}` });

beforeAll(async () => {
  built = await buildCore(loadConfig({ DATABASE_PATH: ":memory:" }), { log: pino({ level: "silent" }) });
});
afterAll(async () => {
  await built.close();
});

describe("/chart through the core", () => {
  it("draws a 1200×675 picture with interval buttons that redraw in place", async () => {
    const reply = (await built.core.run(chat(), "chart", ["pepe", "1h"]))!;
    expect(reply.error).toBeUndefined();
    expect(dimensions(reply.image!.png)).toEqual({ width: 1200, height: 675 });
    expect(reply.title).toMatch(/^PEPE · eth · 1h/);
    for (const l of ["1m", "5m", "15m", "4h", "1d", "1w"]) expect(labels(reply)).toContain(l);
    const intervals = ["1m", "5m", "15m", "1h", "4h", "1d", "1w"];
    const intervalButtons = reply.actions.flat().filter((a) => a.kind === "command" && a.command === "chart" && intervals.some((i) => a.args.includes(i)));
    expect(intervalButtons.length).toBeGreaterThanOrEqual(7);
    expect(intervalButtons.every((a) => a.kind === "command" && a.edit)).toBe(true);
  });

  it("serves a second identical chart from the caches without asking the service again", async () => {
    await built.core.run(chat(), "chart", ["wif", "4h"]);
    const before = built.sandbox!.stats().total;
    const again = (await built.core.run(chat(), "chart", ["wif", "4h"]))!;
    expect(again.image).toBeDefined();
    expect(built.sandbox!.stats().total).toBe(before);
  });

  it("answers an interval it does not chart with the ones it does", async () => {
    const reply = (await built.core.run(chat(), "chart", ["pepe", "7m"]))!;
    expect(reply.error).toBe("user");
    expect(reply.title).toMatch(/"7m" is not an interval I chart; choose one of: 1m, 5m, 15m/);
  });

  it("says so when there are no trades to draw", async () => {
    const noMarket = HOSTILE_TOKENS.find((t) => t.symbol === "NOMKT")!;
    const reply = (await built.core.run(chat(), "chart", [noMarket.id]))!;
    const text = JSON.stringify(reply);
    expect(text).toMatch(/no trades/i);
  });

  it("draws hostile symbols as plain text in the title", async () => {
    for (const t of HOSTILE_TOKENS.filter((h) => /<|@everyone|\u202e/.test(h.symbol + h.name)).slice(0, 3)) {
      const reply = (await built.core.run(chat(), "chart", [t.id]))!;
      expect(reply.error === undefined || reply.error === "user").toBe(true);
      expect(reply.title).not.toMatch(/[\u202a-\u202e\u200b]/);
    }
  });
});

describe("/chart on the platforms", () => {
  it("sends a photo with a caption in Telegram and swaps it in place for another interval", async () => {
    // The harness closes its store when done: it gets its own, the core keeps the shared one.
    const h: Harness = await startHarness({ core: built.core });
    try {
      const user = fakeUser({ id: 4321 });
      const asked = h.fake.sendText(privateChat(user), "/chart pepe 1h", { from: user });
      const photo = await h.fake.waitForSent((s) => s.replyTo === asked.message_id, { timeoutMs: 15_000 });
      expect(photo.method).toBe("sendPhoto");
      expect(photo.text.length).toBeLessThanOrEqual(1024);
      expect(dimensions(photo.photo!.data)).toEqual({ width: 1200, height: 675 });
      const since = h.fake.calls.length;
      h.fake.pressButton(photo, "4h", user);
      await h.fake.waitFor((c) => c.method === "editMessageMedia", { since, timeoutMs: 15_000 });
      const stored = h.fake.message(photo.chatId, photo.messageId)!;
      expect(stored.text).toMatch(/4h/);
      expect(h.fake.unansweredCallbacks()).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it("shows the picture as an attachment in the embed in Discord and updates the message for another interval", async () => {
    const fake: FakeDiscord = await startFakeDiscord();
    const adapter: PlatformAdapter = createDiscordAdapter({
      token: fake.token,
      applicationId: fake.applicationId,
      apiRoot: fake.apiRoot,
      core: built.core,
      store: built.store,
      logger: pino({ level: "silent" }),
    });
    try {
      await adapter.start();
      const place = { user: { id: "700000000000000777", username: "u" }, channelId: "800000000000000777" };
      const first = await fake.chatInput({ name: "chart", options: [{ name: "token", type: OptionType.string, value: "pepe" }], ...place }).settled();
      if (first.kind !== "message") throw new Error(first.kind);
      const embed = first.message.embeds[0] as { image?: { url: string }; title?: string };
      expect(embed.image?.url).toBe("attachment://chart.png");
      expect(first.request.files.map((f) => f.name)).toEqual(["chart.png"]);
      const buttons = (first.message.components as { components: { label: string; custom_id?: string }[] }[]).flatMap((r) => r.components);
      const fourHours = buttons.find((b) => b.label === "4h")!.custom_id!;
      const second = await fake.button({ customId: fourHours, message: first.message as FakeMessage, ...place }).settled();
      if (second.kind !== "message") throw new Error(second.kind);
      expect(second.message.id).toBe(first.message.id);
      expect((second.message.embeds[0] as { title?: string }).title).toMatch(/4h/);
      expect(second.request.files.map((f) => f.name)).toEqual(["chart.png"]);
      expect(fake.violations).toEqual([]);
    } finally {
      await adapter.stop();
      await fake.close();
    }
  });
});
