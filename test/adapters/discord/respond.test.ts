import { describe, expect, it } from "vitest";
import type { ActionStore } from "../../../src/adapters/discord/buttons.js";
import { ackBudget, answerInTime, type AnswerableInteraction } from "../../../src/adapters/discord/respond.js";
import type { Reply } from "../../../src/core/reply.js";

const NOW = Date.UTC(2026, 10, 24, 12, 0);

const noActions: ActionStore = { put: () => "unused", get: async () => undefined };

/** An interaction that records what the bot answered, as discord.js would send it. */
function interaction(createdTimestamp: number) {
  const calls: { method: string; title?: string }[] = [];
  const titleOf = (options: unknown): string | undefined => (options as { embeds?: { title?: string }[] }).embeds?.[0]?.title;
  const it = {
    createdTimestamp,
    deferred: false,
    replied: false,
    isButton: () => false,
    async reply(options: unknown) {
      it.replied = true;
      calls.push({ method: "reply", title: titleOf(options) });
    },
    async deferReply() {
      it.deferred = true;
      calls.push({ method: "deferReply" });
    },
    async editReply(options: unknown) {
      calls.push({ method: "editReply", title: titleOf(options) });
    },
    async followUp(options: unknown) {
      calls.push({ method: "followUp", title: titleOf(options) });
    },
  };
  return { interaction: it as unknown as AnswerableInteraction, calls };
}

function priceReply(title: string, stale: boolean): Reply {
  return { title, tone: "info", blocks: [], actions: [], footer: { source: "test", asOf: NOW - 240_000, stale } };
}

describe("answering a Discord interaction in time", () => {
  it("counts Discord's 3 seconds from the interaction's creation, keeping half a second for the trip", () => {
    expect(ackBudget(NOW - 100, NOW, 1_500)).toBe(1_500);
    expect(ackBudget(NOW - 2_000, NOW, 1_500)).toBe(500);
    expect(ackBudget(NOW - 2_900, NOW, 1_500)).toBe(0);
    // A creation time minutes off says the clocks disagree: the configured wait holds.
    expect(ackBudget(NOW - 600_000, NOW, 1_500)).toBe(1_500);
  });

  it("defers at once an interaction that reached the bot late, then edits the answer in", async () => {
    const { interaction: i, calls } = interaction(NOW - 2_600);
    let answer!: (r: Reply) => void;
    const work = new Promise<Reply>((resolve) => (answer = resolve));
    const done = answerInTime(i, work, "reply", { ackWithinMs: 1_500, actions: noActions, now: () => NOW });
    await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([{ method: "deferReply" }]);
    answer(priceReply("PEPE $1.00", false));
    await done;
    expect(calls.map((c) => c.method)).toEqual(["deferReply", "editReply"]);
  });

  it("edits an answer that showed older data once the command, run again, finds fresh data", async () => {
    const { interaction: i, calls } = interaction(NOW);
    const reruns = [priceReply("PEPE $1.00 (still old)", true), priceReply("PEPE $1.20", false)];
    const waits: number[] = [];
    await answerInTime(i, Promise.resolve(priceReply("PEPE $1.00", true)), "reply", {
      ackWithinMs: 1_500, actions: noActions, now: () => NOW,
      rerun: async () => reruns.shift() ?? null,
      sleep: async (ms) => void waits.push(ms),
    });
    for (let n = 0; n < 20 && calls.length < 2; n++) await new Promise((r) => setImmediate(r));
    expect(calls).toEqual([{ method: "reply", title: "PEPE $1.00" }, { method: "editReply", title: "PEPE $1.20" }]);
    expect(waits).toEqual([3_000, 7_000]);
  });

  it("leaves a fresh answer alone", async () => {
    const { interaction: i, calls } = interaction(NOW);
    let reran = false;
    await answerInTime(i, Promise.resolve(priceReply("PEPE $1.20", false)), "reply", {
      ackWithinMs: 1_500, actions: noActions, now: () => NOW, rerun: async () => ((reran = true), null), sleep: async () => undefined,
    });
    await new Promise((r) => setImmediate(r));
    expect(calls.map((c) => c.method)).toEqual(["reply"]);
    expect(reran).toBe(false);
  });
});
