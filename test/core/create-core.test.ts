import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { CachedMarket } from "../../src/cache/types.js";
import { MARKET_KEYS } from "../../src/core/failure.js";
import { messages } from "../../src/i18n/index.js";
import { UserError } from "../../src/core/errors.js";
import type { Command } from "../../src/core/command.js";
import { MarketError, type MarketErrorKind } from "../../src/market/errors.js";
import { createFakeMarket } from "../cache/fake-market.js";
import { groupChat, testCore } from "./helpers.js";

/** What an English reader reads for each kind of market failure. */
const MARKET_SENTENCES = Object.fromEntries(
  Object.entries(MARKET_KEYS).map(([kind, key]) => [kind, messages().translator("en").t(key)]),
) as Record<MarketErrorKind, string>;

const KINDS: MarketErrorKind[] = [
  "timeout", "network", "server", "envelope", "malformed", "shape", "rate_limited", "quota", "unauthorized", "bad_request",
];

function throwing(name: string, error: unknown): Command {
  return {
    name, description: "throws", args: [], examples: [`/${name}`],
    run: async () => {
      throw error;
    },
  };
}

/**
 * The cache over the fake market, handing the test each search the core starts. The core
 * awaits a search's promise before the test can (it is the first to hold it), so once the test's
 * await returns, the core has read the answer into its suggestions.
 */
function watchedSearches(api: ReturnType<typeof createFakeMarket>["api"]): { market: CachedMarket; searches: Promise<unknown>[] } {
  const cached = createCachedMarket(api);
  const searches: Promise<unknown>[] = [];
  const market: CachedMarket = {
    ...cached,
    search: (p) => {
      const r = cached.search(p);
      searches.push(r);
      return r;
    },
  };
  return { market, searches };
}

describe("createBotCore", () => {
  it.each(KINDS)("answers a %s failure of the market with one sentence and one log line", async (kind) => {
    const fake = createFakeMarket();
    fake.failWith(kind);
    const { core, logs } = await testCore(fake.api);
    const reply = await core.handleText(groupChat(), "/chains");
    expect(reply).toMatchObject({ title: MARKET_SENTENCES[kind], error: "internal", blocks: [], actions: [] });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ command: "/chains", kind, endpoint: "supportedChains" });
  });

  it("tells the operator, not the user, to fix a refused key", async () => {
    const fake = createFakeMarket();
    fake.failWith("unauthorized");
    const { core } = await testCore(fake.api);
    expect((await core.handleText(groupChat(), "/topics"))?.title).toBe("The bot's market data key was refused; tell the bot's operator.");
  });

  it("answers a token the service does not know as the user's mistake, without a log line", async () => {
    const fake = createFakeMarket();
    fake.failWith("not_found");
    const { core, logs } = await testCore(fake.api);
    const reply = await core.handleText(groupChat(), "/chains");
    expect(reply).toMatchObject({ title: MARKET_SENTENCES.not_found, error: "user", tone: "warn" });
    expect(logs).toEqual([]);
  });

  it("logs the service's own message as serviceMsg, leaving msg to the log line", async () => {
    const refused = new MarketError({ kind: "bad_request", endpoint: "tokenDetail", message: "400", status: 400, msg: "chain not supported" });
    const { core, logs } = await testCore(createFakeMarket().api, { extraCommands: [throwing("bad", refused)] });
    await core.handleText(groupChat(), "/bad");
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 40, msg: "command failed: market service", serviceMsg: "chain not supported" });
  });

  it.each([
    ["tokenDetail", "MARKET_API_KEY"],
    ["v1Pairs", "MARKET_API_V1_KEY"],
  ])("logs a key the service refused on %s at error level, naming %s", async (endpoint, variable) => {
    const refused = new MarketError({ kind: "unauthorized", endpoint, message: "401", status: 401 });
    const { core, logs } = await testCore(createFakeMarket().api, { extraCommands: [throwing("locked", refused)] });
    await core.handleText(groupChat(), "/locked");
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: 50, kind: "unauthorized", endpoint });
    expect(logs[0]?.["msg"]).toContain(variable);
    if (variable === "MARKET_API_KEY") expect(logs[0]?.["msg"]).not.toContain("MARKET_API_V1_KEY");
  });

  it("shows a UserError in the reader's words and logs nothing", async () => {
    const { core, logs } = await testCore(createFakeMarket().api, { extraCommands: [throwing("oops", new UserError("link-no-address"))] });
    expect(await core.handleText(groupChat(), "/oops")).toMatchObject({ title: "I can't find a token address in that link.", error: "user", tone: "warn" });
    expect(logs).toEqual([]);
  });

  it("turns a bug into a fixed sentence without its stack, and logs the command with the stack", async () => {
    const { core, logs } = await testCore(createFakeMarket().api, { extraCommands: [throwing("boom", new TypeError("x is undefined"))] });
    const reply = await core.run(groupChat(), "boom", []);
    expect(reply?.title).toBe("Something went wrong on my side; it has been logged.");
    expect(JSON.stringify(reply)).not.toMatch(/TypeError|x is undefined|at /);
    expect(logs[0]).toMatchObject({ command: "/boom ", msg: "command failed: bug" });
    expect(JSON.stringify(logs[0])).toMatch(/x is undefined/);
  });

  it("survives a command that rejects with something that is not an Error", async () => {
    const { core } = await testCore(createFakeMarket().api, { extraCommands: [throwing("odd", { weird: true })] });
    await expect(core.handleText(groupChat(), "/odd")).resolves.toMatchObject({ error: "internal" });
  });

  it("names an unknown command and points to /help", async () => {
    const { core } = await testCore(createFakeMarket().api);
    expect((await core.handleText(groupChat(), "/fly to the moon"))?.title).toBe("I don't know /fly; /help lists what I can do.");
    // A bare slash, or a space after it, names no command: the answer shows where the name goes.
    expect((await core.handleText(groupChat(), "/ price pepe"))?.title).toBe("Write the command right after the /, like /price pepe; /help lists what I can do.");
  });

  it("answers the 11th command of a minute politely once, then with silence until the window passes", async () => {
    let t = 1_790_000_000_000;
    const { core } = await testCore(createFakeMarket().api, { now: () => t });
    const chat = groupChat();
    for (let i = 0; i < 10; i++) expect((await core.handleText(chat, "/help"))?.error).toBeUndefined();
    const polite = await core.handleText(chat, "/help");
    expect(polite?.title).toMatch(/^You have sent more commands this minute than I take from one person; try again in \d+ seconds\.$/);
    expect(await core.handleText(chat, "/help")).toBeNull();
    expect(await core.run(chat, "help", [])).toBeNull();
    t += 61_000;
    expect((await core.handleText(chat, "/help"))?.title).toBe("What I can do");
  });

  it("does not meter the console", async () => {
    const { core } = await testCore(createFakeMarket().api);
    const consoleChat = { ...groupChat(), platform: "console" as const };
    for (let i = 0; i < 30; i++) expect((await core.handleText(consoleChat, "/help"))?.title).toBe("What I can do");
  });

  it("refuses a duplicate command name at wiring time", async () => {
    await expect(testCore(createFakeMarket().api, { extraCommands: [throwing("price", new Error("x"))] })).rejects.toThrow(/two commands are called \/price/);
  });

  it("suggests tokens at once from what is cached and searches in the background for the next keystroke", async () => {
    const fake = createFakeMarket();
    const { market, searches } = watchedSearches(fake.api);
    const { core } = await testCore(fake.api, { market });
    expect(core.suggestTokens("pepe")).toEqual([]);
    await searches[0];
    const choice = { name: "pepe · — · eth · 0x1111…1111", value: `0x${"1".repeat(40)}-eth` };
    expect(core.suggestTokens("PEP")).toEqual([choice]);
    expect(core.suggestTokens("pepe")).toEqual([choice]);
    await Promise.all(searches);
    expect(fake.calls["search"]?.map((args) => (args[0] as { keyword: string }).keyword)).toEqual(["pepe", "pep"]);
  });

  it("starts no background search for a query that cannot be a symbol", async () => {
    const fake = createFakeMarket();
    const { market, searches } = watchedSearches(fake.api);
    const { core } = await testCore(fake.api, { market });
    for (const q of ["", "x", "0x12!", "a".repeat(40), "pe pe"]) core.suggestTokens(q);
    // A query that can be one, after them: the only search the market sees is its own.
    core.suggestTokens("pepe");
    await Promise.all(searches);
    expect(fake.calls["search"]?.map((args) => (args[0] as { keyword: string }).keyword)).toEqual(["pepe"]);
  });

  it("lists every command in /help and explains one with its examples", async () => {
    const { core } = await testCore(createFakeMarket().api);
    const list = await core.handleText(groupChat(), "/help");
    const labels = list?.blocks.flatMap((b) => (b.kind === "fields" ? b.fields.map((f) => f.label) : []));
    expect(labels).toEqual(core.commands.map((c) => expect.stringMatching(new RegExp(`^/${c.name}\\b`))));
    const one = await core.handleText(groupChat(), "/help holders");
    expect(one?.title).toBe("/holders <token> [n]");
    expect(JSON.stringify(one?.blocks)).toMatch(/\/holders pepe/);
  });

  it("writes a scheduled post outside the budget, as the command would answer when typed in that chat", async () => {
    const fake = createFakeMarket();
    const { core } = await testCore(fake.api, { budget: { perUser: 1, perChat: 1 } });
    const chat = { platform: "telegram" as const, chatId: "g1" };
    const typed = await core.handleText(groupChat("u1", "g1"), "/chains");
    const posts = [await core.post(chat, "chains", []), await core.post(chat, "chains", []), await core.post(chat, "chains", [])];
    for (const post of posts) expect(post).toEqual(typed);
    expect((await core.handleText(groupChat("u1", "g1"), "/chains"))?.error).toBe("user");
  });

  it("answers a scheduled post that cannot be written with its failure, never a rejection", async () => {
    const fake = createFakeMarket();
    fake.failWith("timeout");
    const { core } = await testCore(fake.api);
    const post = await core.post({ platform: "discord", chatId: "c1" }, "chains", []);
    expect(post.error).toBe("internal");
    expect((await core.post({ platform: "discord", chatId: "c1" }, "nosuch", [])).error).toBe("user");
  });
});
