import { describe, expect, it } from "vitest";
import type { ActionStore } from "../../../src/adapters/discord/buttons.js";
import { ackBudget, answerInTime, type AnswerableInteraction } from "../../../src/adapters/discord/respond.js";
import type { OnFresher } from "../../../src/core/fresher.js";
import { errorReply, type Reply } from "../../../src/core/reply.js";
import { deferred } from "../../deferred.js";

const NOW = Date.UTC(2026, 10, 24, 12, 0);

const noActions: ActionStore = { put: () => "unused", get: async () => undefined };

/** An interaction that records what the bot answered, as discord.js would send it. */
function interaction(createdTimestamp: number) {
  const calls: { method: string; title?: string }[] = [];
  /** Settled when the interaction is deferred. */
  const deferral = deferred();
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
      deferral.resolve();
    },
    async editReply(options: unknown) {
      calls.push({ method: "editReply", title: titleOf(options) });
    },
    async followUp(options: unknown) {
      calls.push({ method: "followUp", title: titleOf(options) });
    },
  };
  return { interaction: it as unknown as AnswerableInteraction, calls, deferral: deferral.promise };
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
    const { interaction: i, calls, deferral } = interaction(NOW - 2_600);
    const work = deferred<Reply>();
    const done = answerInTime(i, () => work.promise, "reply", { ackWithinMs: 1_500, actions: noActions, now: () => NOW });
    await deferral;
    expect(calls).toEqual([{ method: "deferReply" }]);
    work.resolve(priceReply("PEPE $1.00", false));
    await done;
    expect(calls.map((c) => c.method)).toEqual(["deferReply", "editReply"]);
  });

  it("puts the core's fresher answer in place of the one it sent, only once that is out", async () => {
    const { interaction: i, calls, deferral } = interaction(NOW - 2_600);
    const work = deferred<Reply>();
    let handed: OnFresher | undefined;
    const done = answerInTime(i, (answering) => ((handed = answering.onFresher), work.promise), "reply", {
      ackWithinMs: 1_500, actions: noActions, now: () => NOW,
    });
    if (handed === undefined) throw new Error("the adapter asked for no fresher answer");
    // Handed before the older answer is out, the fresher one waits for it.
    const fresher = handed(priceReply("PEPE $1.20", false));
    await deferral;
    work.resolve(priceReply("PEPE $1.00", true));
    await Promise.all([done, fresher]);
    expect(calls).toEqual([{ method: "deferReply" }, { method: "editReply", title: "PEPE $1.00" }, { method: "editReply", title: "PEPE $1.20" }]);
  });

  it("never puts a fresher answer over a failure it answered", async () => {
    const { interaction: i, calls } = interaction(NOW);
    let handed: OnFresher | undefined;
    await answerInTime(i, async (answering) => ((handed = answering.onFresher), errorReply("No token named zzz.", "user")), "reply", {
      ackWithinMs: 1_500, actions: noActions, now: () => NOW,
    });
    await handed?.(priceReply("PEPE $1.20", false));
    expect(calls.map((c) => c.method)).toEqual(["reply"]);
  });
});
