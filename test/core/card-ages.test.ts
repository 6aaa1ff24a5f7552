/** The token card dates its figures, and says the age of a contract report kept longer than them. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClockedWorld, type ClockedWorld } from "./clocked-world.js";
import type { ChatContext } from "../../src/core/command.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0);
const PEPE = "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth";

let world: ClockedWorld;
beforeAll(async () => {
  world = await startClockedWorld({ start: T0, tmpPrefix: "cp-card-ages-" });
});
afterAll(() => world.close());

describe("the token card's ages", () => {
  it("dates the card by its figures and says how old the contract report beside them is", async () => {
    const chat: ChatContext = { platform: "telegram", chatId: "501", userId: "501", isPrivate: true, isAdmin: async () => true };
    const first = await world.core.handleText(chat, `/token ${PEPE}`);
    expect(first?.footer?.asOf).toBe(T0);
    expect(JSON.stringify(first?.blocks)).not.toContain("contract report from");
    // Five minutes on: the figures are read again, the report (kept ten minutes) is not.
    world.clock.set(T0 + 5 * 60_000);
    const later = await world.core.handleText(chat, `/token ${PEPE}`);
    expect(later?.footer?.asOf).toBe(T0 + 5 * 60_000);
    expect(JSON.stringify(later?.blocks)).toContain("contract report from 5m ago");
  });
});
