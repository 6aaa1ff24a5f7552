/** Discord buttons, autocomplete and the Token card on the real core over the sandbox market, with a clock the test moves. */
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createActionStore } from "../../../src/adapters/discord/index.js";
import { createCachedMarket } from "../../../src/cache/cached-market.js";
import type { ChartRenderer } from "../../../src/chart/types.js";
import { createBotCore } from "../../../src/core/create-core.js";
import { messages } from "../../../src/i18n/index.js";
import { MarketClient } from "../../../src/market/client.js";
import { startSandbox, type Sandbox } from "../../../src/sandbox/index.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";
import { OptionType, type FakeMessage, type RecordedRequest } from "../../fakes/discord-api.js";
import { startHarness, type Harness } from "./harness.js";
import { deferred } from "../../deferred.js";

const EXPIRED_BUTTON = messages().translator("en").t("adapter-button-expired");
const NOTHING_DETECTED = messages().translator("en").t("discord-nothing-detected");

/** PEPE's contract on eth. */
const ADDRESS = "0x6982508145454ce325ddbe47a25d4ec3d2311933";
/** PEPE on solana: a refresh naming it beside PEPE on eth is too long for a custom id, so its button is a stored key. */
const PEPE_SOL = "G7Bg6Mj49EyLece85JBw3jGZFTXNXgyb9KYaDhmFwks-solana";
const MINUTE = 60_000;

const noCharts: ChartRenderer = { render: () => Promise.reject(new Error("charts are not part of this test")), close: async () => undefined };

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

/** Text as Discord shows it: Markdown escapes undone. */
function unescape(markdown: string): string {
  return markdown.replace(/\\(.)/g, "$1");
}

describe("Discord buttons, autocomplete and the Token card, end to end", () => {
  let h: Harness;
  /** An adapter that defers after 100 ms, well before the core answers from its cache when the market is slow. */
  let quick: Harness;
  let sandbox: Sandbox;
  let client: MarketClient;
  let store: SqliteStore;
  /** Every market answer waits for this while the sandbox's latency fault is set. */
  let gate = deferred();
  let clock = Date.UTC(2026, 10, 22, 12, 0);

  beforeAll(async () => {
    sandbox = await startSandbox({ now: () => clock, seed: 1, delay: () => gate.promise });
    client = new MarketClient({ v2: { baseUrl: sandbox.url, key: sandbox.v2Key }, retry: { maxAttempts: 1 }, timeoutMs: 20_000 });
    store = await openSqliteStore({ path: ":memory:" });
    const core = createBotCore({
      market: createCachedMarket(client, { now: () => clock }),
      store,
      charts: noCharts,
      log: pino({ level: "silent" }),
      source: "demo data (sandbox)",
      now: () => clock,
      budget: { perUser: 100_000, perChat: 100_000 },
    });
    const actions = createActionStore({ ttlMs: 60_000, now: () => clock });
    // Long enough that an answer the market gives at once is never deferred on a loaded machine: the
    // tests check the callback type. The test of a deferral has an adapter of its own that defers sooner.
    h = await startHarness({ core, adapter: { ackWithinMs: 3_000, actions, now: () => clock } });
    quick = await startHarness({ core, adapter: { ackWithinMs: 100, actions, now: () => clock } });
  });
  afterAll(async () => {
    gate.resolve();
    await h.close();
    await quick.close();
    await client.close();
    await sandbox.close();
    await store.close();
  });
  afterEach(() => {
    gate.resolve();
    sandbox.clearFaults();
    expect(h.fake.violations).toEqual([]);
    expect(quick.fake.violations).toEqual([]);
  });

  /** Market answers wait until `gate` opens. */
  function slowMarket(): void {
    gate = deferred();
    sandbox.setFaults([{ kind: "latency", ms: 1 }]);
  }

  async function priceMessage(tokens = "pepe", on: Harness = h): Promise<FakeMessage> {
    const answer = await on.fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: tokens }] }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    return answer.message;
  }

  it("refreshes a message in place when its refresh button is pressed", async () => {
    const message = await priceMessage();
    const before = JSON.stringify(message.embeds);
    clock += 10 * MINUTE;
    const answer = await h.fake.button({ customId: button(message, "↻ Refresh"), message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(callbackType(answer.request)).toBe(7);
    expect(answer.message.id).toBe(message.id);
    expect(unescape(titleOf(answer.message) ?? "")).toMatch(/^PEPE \$/);
    expect(JSON.stringify(answer.message.embeds)).not.toBe(before);
  });

  it("pages a table in place and keeps a working next button", async () => {
    const first = await h.fake.chatInput({ name: "trending", options: [{ name: "chain", type: OptionType.string, value: "eth" }] }).settled();
    if (first.kind !== "message") throw new Error(first.kind);
    const second = await h.fake.button({ customId: button(first.message, "Next ▶"), message: first.message }).settled();
    if (second.kind !== "message") throw new Error(second.kind);
    expect(unescape(titleOf(second.message) ?? "")).toMatch(/^Trending on eth · page 2 of \d+$/);
    const third = await h.fake.button({ customId: button(second.message, "Next ▶"), message: second.message }).settled();
    if (third.kind !== "message") throw new Error(third.kind);
    expect(third.message.id).toBe(first.message.id);
    expect(unescape(titleOf(third.message) ?? "")).toMatch(/^Trending on eth · page 3 of \d+$/);
  });

  it("runs nothing for a real button's custom id sent with another message, which it is not on", async () => {
    const trending = await h.fake.chatInput({ name: "trending", options: [{ name: "chain", type: OptionType.string, value: "eth" }] }).settled();
    if (trending.kind !== "message") throw new Error(trending.kind);
    const card = await priceMessage();
    sandbox.resetStats();
    // The card's own Refresh, pressed as if it were on the trending list: it would edit the list into the card.
    const answer = await h.fake.button({ customId: button(card, "↻ Refresh"), message: trending.message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(answer.message.content).toBe(EXPIRED_BUTTON);
    expect(sandbox.stats().total).toBe(0);
  });

  it("posts a new message for a button that opens a card", async () => {
    const message = await priceMessage();
    const answer = await h.fake.button({ customId: button(message, "Card"), message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(callbackType(answer.request)).toBe(4);
    expect(answer.message.id).not.toBe(message.id);
    expect(unescape(titleOf(answer.message) ?? "")).toBe("Pepe (PEPE) · eth");
  });

  it("says ephemerally that a button whose action was too long for its custom id expired, and runs nothing", async () => {
    // Two ids do not fit in 100 characters: the button carries a key into the store.
    const message = await priceMessage(`${ADDRESS}-eth ${PEPE_SOL}`);
    clock += 61_000;
    sandbox.resetStats();
    const answer = await h.fake.button({ customId: button(message, "↻ Refresh"), message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(answer.message.content).toBe(EXPIRED_BUTTON);
    expect(sandbox.stats().total).toBe(0);
  });

  it("answers a foreign or mangled custom id as an expired button", async () => {
    const message = await priceMessage();
    const answer = await h.fake.button({ customId: "something-else", message }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.message.content).toBe(EXPIRED_BUTTON);
  });

  it("defers an in-place update while the market is slow and then edits the same message", async () => {
    const first = await priceMessage("pepe", quick);
    clock += 10 * MINUTE;
    slowMarket();
    const press = quick.fake.button({ customId: button(first, "↻ Refresh"), message: first });
    expect(callbackType(await press.acknowledged())).toBe(6);
    gate.resolve();
    const answer = await press.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.request.method).toBe("PATCH");
    expect(answer.message.id).toBe(first.id);
    expect(JSON.stringify(answer.message.embeds)).not.toBe(JSON.stringify(first.embeds));
  });

  it("answers autocomplete from cached suggestions at once while a command waits on the service", async () => {
    await priceMessage("pepe");
    clock += 10 * MINUTE;
    slowMarket();
    const slow = h.fake.chatInput({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "bonk" }] });
    const ia = h.fake.autocomplete({ name: "token", options: [{ name: "token", type: OptionType.string, value: "pe", focused: true }] });
    const answer = await ia.settled();
    if (answer.kind !== "choices") throw new Error(answer.kind);
    expect(answer.choices.length).toBeGreaterThan(0);
    expect(answer.choices[0]?.name).toMatch(/^PEPE · /);
    expect(answer.choices[0]?.value).toMatch(/-[a-z]+$/);
    expect(slow.requests().some((r) => r.method === "PATCH")).toBe(false);
    gate.resolve();
    await slow.settled();
  });

  it("completes the last word of a token list and keeps the words before it", async () => {
    await priceMessage("wif");
    const ia = h.fake.autocomplete({ name: "price", options: [{ name: "tokens", type: OptionType.string, value: "pepe wi", focused: true }] });
    const answer = await ia.settled();
    if (answer.kind !== "choices") throw new Error(answer.kind);
    expect(answer.choices.length).toBeGreaterThan(0);
    for (const c of answer.choices) {
      expect(c.name).toMatch(/^pepe WIF · /);
      expect(c.value).toMatch(/^pepe \S+-[a-z]+$/);
    }
  });

  it("names clones apart by liquidity and short address, and keeps that end whole after earlier words", async () => {
    await priceMessage("pepe");
    const names = async (value: string): Promise<string[]> => {
      const answer = await h.fake.autocomplete({ name: "price", options: [{ name: "tokens", type: OptionType.string, value, focused: true }] }).settled();
      if (answer.kind !== "choices") throw new Error(answer.kind);
      return answer.choices.map((c) => c.name);
    };
    const alone = await names("pepe");
    expect(alone.filter((n) => n.startsWith("PEPE · Pepe · eth · ")).length).toBeGreaterThan(1);
    expect(new Set(alone).size).toBe(alone.length);
    // Fifty characters before: a long label no longer fits beside them whole.
    const after = await names(`${"bonk ".repeat(10)}pepe`);
    expect(after.some((n) => n.startsWith("…"))).toBe(true);
    for (const n of [...alone, ...after]) {
      expect([...n].length).toBeLessThanOrEqual(100);
      expect(n).toMatch(/ · \$[\d.]+[KMBT]? · \w{4,6}…\w{4}$/);
    }
  });

  it("suggests nothing for an option Discord offers fixed choices for", async () => {
    const ia = h.fake.autocomplete({ name: "chart", options: [{ name: "category", type: OptionType.string, value: "u", focused: true }] });
    const answer = await ia.settled();
    if (answer.kind !== "choices") throw new Error(answer.kind);
    expect(answer.choices).toEqual([]);
  });

  it("shows the token card for an address found in a chosen message", async () => {
    const ia = h.fake.messageCommand({ name: "Token card", target: { content: `look at this ${ADDRESS} moon` } });
    const answer = await ia.settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(false);
    expect(unescape(titleOf(answer.message) ?? "")).toBe("Pepe (PEPE) · eth");
  });

  it("tells the caller alone when the chosen message holds no token", async () => {
    const answer = await h.fake.messageCommand({ name: "Token card", target: { content: "gm everyone" } }).settled();
    if (answer.kind !== "message") throw new Error(answer.kind);
    expect(answer.ephemeral).toBe(true);
    expect(titleOf(answer.message)).toBe(NOTHING_DETECTED);
  });
});
