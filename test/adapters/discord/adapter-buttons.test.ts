import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createActionStore } from "../../../src/adapters/discord/index.js";
import { EXPIRED_BUTTON, NOTHING_DETECTED } from "../../../src/adapters/discord/interactions.js";
import { OptionType, type FakeMessage, type RecordedRequest } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";
import { createTestCore, type TestCore } from "./test-core.js";
import { ADDRESS, detectAddress, testCommands, type Gate } from "./test-commands.js";

type Button = { custom_id?: string; label: string };

function buttonsOf(message: FakeMessage): Button[] {
  return (message.components as { components: Button[] }[]).flatMap((r) => r.components);
}

function button(message: FakeMessage, label: string): string {
  const id = buttonsOf(message).find((b) => b.label === label)?.custom_id;
  if (id === undefined) throw new Error(`no button ${label}`);
  return id;
}

function callbackType(r: RecordedRequest): number | undefined {
  return (r.body as { type?: number }).type;
}

function titleOf(message: FakeMessage): string | undefined {
  return (message.embeds[0] as { title?: string } | undefined)?.title;
}

const SUGGESTIONS = [
  { name: "PEPE · eth", value: `${ADDRESS}-eth` },
  { name: "PEPE2 · bsc", value: "0x1111111111111111111111111111111111111111-bsc" },
  { name: "WIF · solana", value: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm-solana" },
];

describe("Discord buttons, autocomplete and the Token card, end to end", () => {
  let h: Harness;
  let core: TestCore;
  let gate: Gate;
  // lru-cache treats a start time of 0 as "never set", so the clock starts later.
  let clock = 1_000_000;

  beforeAll(async () => {
    const t = testCommands();
    gate = t.gate();
    core = createTestCore({ commands: t.commands, suggestions: SUGGESTIONS, detect: detectAddress });
    const actions = createActionStore({ ttlMs: 60_000, now: () => clock });
    h = await startHarness({ core, adapter: { ackWithinMs: 300, actions } });
  });
  afterAll(() => h.close());
  afterEach(() => {
    expect(h.fake.violations).toEqual([]);
  });

  async function priceMessage(tokens = "pepe"): Promise<FakeMessage> {
    const answer = await h.fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: tokens }] }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    return answer.message;
  }

  it("refreshes a message in place when its refresh button is pressed", async () => {
    const message = await priceMessage();
    const before = JSON.stringify(message.embeds);
    const answer = await h.fake.button({ customId: button(message, "Refresh"), message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(callbackType(answer.request)).toBe(7);
    expect(answer.message.id).toBe(message.id);
    expect(JSON.stringify(answer.message.embeds)).not.toBe(before);
    expect(core.calls.at(-1)).toMatchObject({ command: "price", args: ["pepe"] });
  });

  it("pages a table in place and keeps a working next button", async () => {
    const first = await h.fake.chatInput({ name: "trending", options: [{ name: "chain", type: OptionType.string, value: "eth" }] }).settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const second = await h.fake.button({ customId: button(first.message, "Next"), message: first.message }).settled();
    if (second.kind !== "message") throw new Error(second.kind);
    expect(titleOf(second.message)).toBe("Trending on eth, page 2");
    const third = await h.fake.button({ customId: button(second.message, "Next"), message: second.message }).settled();
    if (third.kind !== "message") throw new Error(third.kind);
    expect(third.message.id).toBe(first.message.id);
    expect(titleOf(third.message)).toBe("Trending on eth, page 3");
  });

  it("posts a new message for a button that opens a card", async () => {
    const message = await priceMessage();
    const answer = await h.fake.button({ customId: button(message, "Open card"), message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(callbackType(answer.request)).toBe(4);
    expect(answer.message.id).not.toBe(message.id);
    expect(titleOf(answer.message)).toBe("Card\\: pepe");
  });

  it("says ephemerally that a button whose action was too long for its custom id expired, and runs nothing", async () => {
    // Two addresses do not fit in 100 characters: the button carries a key into the store.
    const message = await priceMessage(`${ADDRESS}-eth ${ADDRESS}-bsc`);
    const calls = core.calls.length;
    clock += 61_000;
    const answer = await h.fake.button({ customId: button(message, "Refresh"), message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(answer.message.content).toBe(EXPIRED_BUTTON);
    expect(core.calls.length).toBe(calls);
  });

  it("answers a foreign or mangled custom id as an expired button", async () => {
    const message = await priceMessage();
    const answer = await h.fake.button({ customId: "something-else", message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.message.content).toBe(EXPIRED_BUTTON);
  });

  it("defers a slow in-place update and then edits the same message", async () => {
    const slow = h.fake.chatInput({ name: "slow" });
    await slow.acknowledged();
    gate.release();
    const first = await slow.settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const press = h.fake.button({ customId: button(first.message, "Again"), message: first.message });
    expect(callbackType(await press.acknowledged())).toBe(6);
    gate.release();
    const answer = await press.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.method).toBe("PATCH");
    expect(answer.message.id).toBe(first.message.id);
    expect(JSON.stringify(answer.message.embeds)).not.toBe(JSON.stringify(first.message.embeds));
  });

  it("answers autocomplete from cached suggestions at once while a command waits on the service", async () => {
    const slow = h.fake.chatInput({ name: "slow" });
    const ia = h.fake.autocomplete({ name: "token", options: [{ name: "token", type: OptionType.string, value: "pe", focused: true }] });
    const answer = await ia.settled();
    if (answer.kind !== "choices") throw new Error(answer.kind);
    expect(answer.choices).toEqual(SUGGESTIONS.slice(0, 2));
    expect(answer.request.at - ia.dispatchedAt).toBeLessThan(3000);
    expect(slow.requests().some((r) => r.method === "PATCH")).toBe(false);
    gate.release();
    await slow.settled();
  });

  it("completes the last word of a token list and keeps the words before it", async () => {
    const ia = h.fake.autocomplete({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe wi", focused: true }] });
    const answer = await ia.settled();
    if (answer.kind !== "choices") throw new Error(answer.kind);
    expect(answer.choices).toEqual([{ name: "pepe WIF · solana", value: "pepe EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm-solana" }]);
  });

  it("suggests nothing for an option Discord offers fixed choices for", async () => {
    const ia = h.fake.autocomplete({ name: "trending", options: [{ name: "chain", type: OptionType.string, value: "b", focused: true }] });
    const answer = await ia.settled();
    if (answer.kind !== "choices") throw new Error(answer.kind);
    expect(answer.choices).toEqual([]);
  });

  it("shows the token card for an address found in a chosen message", async () => {
    const ia = h.fake.messageCommand({ name: "Token card", target: { content: `look at this ${ADDRESS} moon` } });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(false);
    expect(titleOf(answer.message)).toBe("Card\\: PEPE");
  });

  it("tells the caller alone when the chosen message holds no token", async () => {
    const answer = await h.fake.messageCommand({ name: "Token card", target: { content: "gm everyone" } }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(titleOf(answer.message)).toBe(NOTHING_DETECTED);
  });
});
