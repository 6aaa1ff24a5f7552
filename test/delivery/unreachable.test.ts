/**
 * A scheduled message is owed: when the platform fails on its side (5xx) or cannot be reached,
 * the post is tried again under its one claim until its deadline, never recorded failed at the
 * first 502. The platform's errors are the libraries' own (grammY, @discordjs/rest); the queue
 * is the paced one the bot runs.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from "discord.js";
import { GrammyError, HttpError } from "grammy";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { classifySendError as discordOutcome } from "../../src/adapters/discord/send.js";
import { classifySendError as telegramOutcome } from "../../src/adapters/telegram/errors.js";
import type { SendOutcome } from "../../src/adapters/types.js";
import type { Reply } from "../../src/core/reply.js";
import { createSendProtocol, type SendKind } from "../../src/delivery/protocol.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import type { SendState } from "../../src/store/types.js";

const REPLY: Reply = { title: "post", tone: "info", blocks: [], actions: [] };

describe("a platform that fails on its side or cannot be reached", () => {
  it("is read as try again, with why, on Telegram and on Discord; a refusal stays final", () => {
    const badGateway = new GrammyError("Call to 'sendMessage' failed!", { ok: false, error_code: 502, description: "Bad Gateway" }, "sendMessage", {});
    expect(telegramOutcome(badGateway)).toEqual({ kind: "retry", afterMs: 5_000, reason: "502 Bad Gateway" });
    const network = new HttpError("Network request for 'sendMessage' failed!", Object.assign(new Error("connect"), { code: "ECONNRESET" }));
    expect(telegramOutcome(network)).toMatchObject({ kind: "retry", afterMs: 5_000, reason: expect.stringContaining("ECONNRESET") });
    const refused = new GrammyError("Call to 'sendMessage' failed!", { ok: false, error_code: 400, description: "Bad Request: message is too long" }, "sendMessage", {});
    expect(telegramOutcome(refused)).toEqual({ kind: "failed", reason: "400 Bad Request: message is too long" });

    const body = { body: undefined, files: undefined };
    expect(discordOutcome(new HTTPError(503, "Service Unavailable", "POST", "/channels/1/messages", body))).toMatchObject({ kind: "retry", afterMs: 5_000 });
    expect(discordOutcome(new DiscordAPIError({ code: 0, message: "Internal" }, 0, 500, "POST", "/channels/1/messages", body))).toMatchObject({ kind: "retry" });
    const reset = new TypeError("fetch failed", { cause: Object.assign(new Error("socket"), { code: "UND_ERR_SOCKET" }) });
    expect(discordOutcome(reset)).toEqual({ kind: "retry", afterMs: 5_000, reason: "UND_ERR_SOCKET" });
    expect(discordOutcome(new DiscordAPIError({ code: 50035, message: "Invalid Form Body" }, 50035, 400, "POST", "/channels/1/messages", body))).toMatchObject({ kind: "failed" });
  });

  it("reads a Discord channel's rate limit as holding that channel only, and the global one as holding every post", () => {
    const limit = (global: boolean) => new RateLimitError({
      timeToReset: 4_000, limit: 5, method: "POST", hash: "h", url: "/channels/1/messages", route: "/channels/:id/messages",
      majorParameter: "1", global, retryAfter: 4_000, sublimitTimeout: 0, scope: global ? "global" : "user",
    });
    expect(discordOutcome(limit(false))).toEqual({ kind: "retry", afterMs: 4_000, scope: "chat" });
    expect(discordOutcome(limit(true))).toEqual({ kind: "retry", afterMs: 4_000 });
  });

  it("sends the post again under its one claim until the platform takes it, and records it delivered", async () => {
    const row = { state: "queued" as SendState };
    let claims = 0;
    const kind: SendKind<typeof row> = {
      name: "buy",
      rows: {
        async claim(r) {
          claims++;
          if (r.state !== "queued") return "taken";
          r.state = "sending";
          return "claimed";
        },
        async settle(r, to) {
          r.state = to;
          return true;
        },
        async expire() {
          return false;
        },
      },
      chats: { forgetChat: async () => undefined, moveChat: async () => undefined },
    };
    const answers: SendOutcome[] = [
      { kind: "retry", afterMs: 20, reason: "502 Bad Gateway" },
      { kind: "retry", afterMs: 20, reason: "ECONNRESET" },
      { kind: "delivered" },
    ];
    let attempts = 0;
    const lines: string[] = [];
    const protocol = createSendProtocol({
      queues: { telegram: createPacedQueue({ maxInFlight: 1 }) },
      adapters: { telegram: { send: async () => answers[attempts++] ?? { kind: "failed", reason: "asked too often" } } },
      logger: pino({ level: "warn" }, { write: (line: string) => void lines.push(line) }),
    });
    const report = await protocol.send(kind, {
      item: row, platform: "telegram", chatId: "1", deadline: Date.now() + 60_000, reply: REPLY,
      claiming: () => true, unleased: () => undefined, names: {},
    });
    expect(report).toMatchObject({ kind: "recorded", state: "delivered" });
    expect(row.state).toBe("delivered");
    expect([attempts, claims]).toEqual([3, 1]);
    expect(lines.filter((l) => l.includes("a post could not reach the platform: trying again"))).toHaveLength(2);
  });
});
