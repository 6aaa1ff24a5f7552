/**
 * Sends per outcome: every post the protocol records is counted in `chainpulse_sends_total` by
 * kind, platform and the state written on its row — delivered, resent (sent once more after an
 * interrupted send), forbidden (refused by the chat) and gone — as the bot wires the counter
 * (app/start-bot.ts). The rows are a kind's rows in memory, the queue the paced one the bot runs.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { SendOutcome } from "../../src/adapters/types.js";
import type { Reply } from "../../src/core/reply.js";
import { createSendProtocol, type SendKind } from "../../src/delivery/protocol.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createMetrics } from "../../src/ops/metrics.js";
import type { Platform, SendState } from "../../src/store/types.js";

interface Row {
  chatId: string;
  state: SendState;
}

const REPLY: Reply = { title: "post", tone: "info", blocks: [], actions: [] };

describe("sends per outcome in the metrics", () => {
  it("counts each recorded post under its outcome: delivered, resent, forbidden, gone", async () => {
    const metrics = createMetrics({ processMetrics: false });
    const rows: Row[] = [
      { chatId: "1", state: "queued" },
      { chatId: "2", state: "interrupted" },
      { chatId: "3", state: "queued" },
      { chatId: "4", state: "queued" },
    ];
    const answers = new Map<string, SendOutcome>([
      ["1", { kind: "delivered" }],
      ["2", { kind: "delivered" }],
      ["3", { kind: "forbidden", reason: "the bot was blocked by the user" }],
      ["4", { kind: "gone", reason: "chat not found" }],
    ]);
    const forgotten: string[] = [];
    const kind: SendKind<Row> = {
      name: "alert",
      rows: {
        async claim(row) {
          if (row.state !== "queued" && row.state !== "interrupted") return "taken";
          const claim = row.state === "interrupted" ? "resend" : "claimed";
          row.state = "sending";
          return claim;
        },
        async settle(row, to) {
          if (row.state !== "sending") return false;
          row.state = to;
          return true;
        },
        async expire() {
          return false;
        },
      },
      chats: {
        forgetChat: async (chat) => void forgotten.push(chat.chatId),
        moveChat: async () => undefined,
      },
    };
    const protocol = createSendProtocol({
      queues: { telegram: createPacedQueue({ maxInFlight: 1 }) },
      adapters: { telegram: { send: async (chatId) => answers.get(chatId) ?? { kind: "failed", reason: "no answer" } } },
      logger: pino({ level: "silent" }),
      onOutcome: (k: string, platform: Platform, outcome: string) => void metrics.sends.inc({ kind: k, platform, outcome }),
    });
    for (const row of rows) {
      const report = await protocol.send(kind, {
        item: row,
        platform: "telegram",
        chatId: row.chatId,
        deadline: Date.now() + 60_000,
        reply: REPLY,
        claiming: () => true,
        unleased: () => undefined,
        names: {},
      });
      expect(report.kind).toBe("recorded");
    }

    expect(rows.map((r) => r.state)).toEqual(["delivered", "resent", "forbidden", "gone"]);
    expect(forgotten).toEqual(["4"]);
    const text = await metrics.registry.metrics();
    for (const outcome of ["delivered", "resent", "forbidden", "gone"]) {
      expect(text).toContain(`chainpulse_sends_total{kind="alert",platform="telegram",outcome="${outcome}"} 1`);
    }
  });
});

describe("urgent kinds", () => {
  it("hand the queue their posts as urgent, so they go before a chat's backlog", async () => {
    const pushed: { chatId: string; urgent?: boolean }[] = [];
    const queue = createPacedQueue({ maxInFlight: 1 });
    const recording = { ...queue, push: (job: Parameters<typeof queue.push>[0]) => (pushed.push({ chatId: job.chatId, ...(job.urgent === undefined ? {} : { urgent: job.urgent }) }), queue.push(job)) };
    const protocol = createSendProtocol({
      queues: { telegram: recording },
      adapters: { telegram: { send: async () => ({ kind: "delivered" }) } },
      logger: pino({ level: "silent" }),
    });
    const kindOf = (name: string, urgent: boolean): SendKind<Row> => ({
      name,
      ...(urgent ? { urgent } : {}),
      rows: { claim: async () => "claimed", settle: async () => true, expire: async () => false },
      chats: { forgetChat: async () => undefined, moveChat: async () => undefined },
    });
    const post = (chatId: string) => ({
      item: { chatId, state: "queued" as SendState }, platform: "telegram" as const, chatId, deadline: Date.now() + 60_000,
      reply: REPLY, claiming: () => true, unleased: () => undefined, names: {},
    });
    await protocol.send(kindOf("buy", false), post("1"));
    await protocol.send(kindOf("alert", true), post("2"));
    expect(pushed).toEqual([{ chatId: "1" }, { chatId: "2", urgent: true }]);
  });
});
