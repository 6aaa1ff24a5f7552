import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";
import { DAY, HOUR, MINUTE, PEPE, startCallsWorld, T0, textOf, type CallsWorld } from "./calls-world.js";

let dir: string;
let store: Store;
let world: CallsWorld;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "chainpulse-calls-"));
  store = await openSqliteStore({ path: join(dir, "bot.db") });
  world = await startCallsWorld(store);
});

afterEach(async () => {
  await world.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The board's call of PEPE in the default group. */
const pepeCall = () => store.calls.currentCall({ platform: "telegram", chatId: "-1001" }, PEPE, 0);

describe("what a call is", () => {
  it("credits the first member to show a card, and a later card of another member says who called it", async () => {
    const ana = world.member("1", "ana");
    const bob = world.member("2", "bob");
    const first = await world.say(ana, `/token ${PEPE}`);
    expect(textOf(first)).toMatch(/📣 ana called this here at \$/);
    expect(first.actions.flat().some((a) => a.kind === "command" && a.command === "calls" && a.args[0] === "remove")).toBe(true);
    world.clock.advance(3 * HOUR);
    const later = await world.say(bob, `/price ${PEPE}`);
    expect(textOf(later)).toMatch(/📣 Called by ana 3h ago at \$[\d.,₀-₉]+ · now [\d.]+× · high [\d.]+×/);
    const call = await pepeCall();
    expect(call).toMatchObject({ userId: "1", userName: "ana", tokenId: PEPE, calledAt: T0 });
    // The price the card showed, at no market call of its own.
    expect(Number(call?.price)).toBeCloseTo(world.sandbox.market.priceAt(world.token(PEPE), T0 / 1000), 12);
    expect(call?.marketCap).toBeDefined();
  });

  it("makes no call in a private chat, from a button, a bot, an anonymous admin or a /price of several tokens", async () => {
    const privately = { ...world.member("1", "ana"), chatId: "1", isPrivate: true };
    expect(textOf(await world.say(privately, `/token ${PEPE}`))).not.toMatch(/📣/);
    const button = { ...world.member("1", "ana"), member: undefined };
    expect(textOf((await world.core.run(button, "token", [PEPE]))!)).not.toMatch(/📣/);
    await world.say(world.member("3", "helper", { kind: "bot" }), `/token ${PEPE}`);
    await world.say(world.member("4", "Group", { kind: "anonymous" }), `/token ${PEPE}`);
    await world.say(world.member("5", "eve"), `/price ${PEPE} 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth, 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2-eth`);
    expect(await pepeCall()).toBeUndefined();
    expect(textOf(await world.say(privately, "/lb"))).toMatch(/Calls are kept in groups/);
    expect(textOf(await world.say(privately, "/calls"))).toMatch(/Calls are kept in groups/);
  });

  it("lets another member call the token again once the window has passed", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    world.clock.advance(29 * DAY);
    await world.say(world.member("2", "bob"), `/token ${PEPE}`);
    expect((await pepeCall())?.userId).toBe("1");
    world.clock.advance(2 * DAY);
    expect(textOf(await world.say(world.member("2", "bob"), `/token ${PEPE}`))).toMatch(/📣 bob called this here/);
    expect((await pepeCall())?.userId).toBe("2");
  });

  it("lets the caller take a call back for 2 minutes with the button, and an admin remove any", async () => {
    const ana = world.member("1", "ana");
    await world.say(ana, `/token ${PEPE}`);
    world.clock.advance(MINUTE);
    // The card redrawn by anyone's Refresh keeps the button while it can be used, and drops it after.
    const refreshed = async () => ((await world.core.run({ ...world.member("2", "bob"), member: undefined }, "token", [PEPE]))?.actions ?? []).flat().some((a) => a.label === "Not a call");
    expect(await refreshed()).toBe(true);
    expect((await world.core.run({ ...world.member("2", "bob"), member: undefined }, "calls", ["remove", PEPE]))?.title).toMatch(/Only the member who called it/);
    expect((await world.core.run({ ...ana, member: undefined }, "calls", ["remove", PEPE]))?.title).toBe("ana's call of PEPE is taken back.");
    expect(await pepeCall()).toBeUndefined();
    // The card's Refresh redraws it without the call.
    const redrawn = await world.core.run({ ...world.member("2", "bob"), member: undefined }, "token", [PEPE]);
    expect(redrawn?.title).toMatch(/PEPE/);
    expect(textOf(redrawn!)).not.toMatch(/called this here|Called by/);
    // The button pressed again: the token is named by its symbol, not by the id the button carries.
    expect((await world.core.run({ ...ana, member: undefined }, "calls", ["remove", PEPE]))?.title).toBe("Nobody in this chat has a call of PEPE standing.");
    await world.say(world.member("2", "bob"), `/token ${PEPE}`);
    world.clock.advance(2 * MINUTE + 1);
    expect(await refreshed()).toBe(false);
    expect((await world.core.run({ ...world.member("2", "bob"), member: undefined }, "calls", ["remove", PEPE]))?.title).toMatch(/2 minutes to take back your call of PEPE have passed/);
    expect((await world.say(world.member("9", "mod", { admin: true }), "/calls remove pepe")).title).toBe("The call of PEPE by bob is removed.");
    expect(textOf(await world.say(world.member("3", "cid"), `/token ${PEPE}`))).toMatch(/📣 cid called this here/);
  });

  it("stops new calls and the line when calls are off, and keeps the board", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    expect((await world.say(world.member("2", "bob"), "/settings calls off")).title).toMatch(/Only this chat's admins/);
    expect((await world.say(world.member("9", "mod", { admin: true }), "/settings calls off")).title).toBe("Saved: calls off (boards stay)");
    world.clock.advance(HOUR);
    expect(textOf(await world.say(world.member("2", "bob"), `/token ${PEPE}`))).not.toMatch(/📣/);
    expect(textOf(await world.say(world.member("2", "bob"), "/lb"))).toMatch(/1 \| ana \| 1 \|/);
  });
});

describe("the high since a call", () => {
  it("puts a wick between two sweeps on the board while the price at each sweep stays flat", async () => {
    const pepe = world.token(PEPE);
    const at = (ms: number) => world.sandbox.market.priceAt(pepe, ms / 1000);
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    world.clock.advance(HOUR);
    const first = await world.sweep();
    expect(first).toMatchObject({ tokens: 1, read: 1, klineCalls: 1, units: 10, failed: 0 });
    // A five-fold wick of one minute, half an hour before the next sweep.
    world.sandbox.market.movePrice(pepe, { fromMinute: (T0 + 90 * MINUTE) / MINUTE, toMinute: (T0 + 90 * MINUTE) / MINUTE, factor: 5 });
    world.clock.advance(HOUR);
    await world.sweep();
    const call = await pepeCall();
    const price = Number(call?.price);
    // Sampled at the sweeps, the price never left where it was; the K-line's high saw the wick.
    expect(at(T0 + HOUR) / price).toBeLessThan(1.5);
    expect(at(T0 + 2 * HOUR) / price).toBeLessThan(1.5);
    expect(Number(call?.high) / price).toBeGreaterThan(4.5);
    // The wick's minute knot closes the minute before it and opens its own: both buckets hold it.
    expect(call?.highAt).toBeGreaterThanOrEqual(T0 + 89 * MINUTE);
    expect(call?.highAt).toBeLessThanOrEqual(T0 + 90 * MINUTE);
    const board = textOf(await world.say(world.member("2", "bob"), "/lb"));
    expect(board).toMatch(/1 \| ana \| 1 \| 100% \| [4-5]\.\d× \| PEPE [4-5]\.\d×/);
    expect(board).toMatch(/Highs from K-lines as of just now, read every 60 min/);
  });

  it("does not say a call's high came from K-lines before the sweep read it", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    world.clock.advance(2 * MINUTE);
    const board = textOf(await world.say(world.member("2", "bob"), "/lb"));
    expect(board).toMatch(/Highs as of 2m ago: a call not read yet counts its price at the call; K-lines are read every 60 min/);
    expect(board).not.toMatch(/Highs from K-lines/);
  });

  it("reads one K-line per called token and none for a token no chat called in 7 days", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    await world.say(world.member("1", "ana", { chatId: "-1002" }), `/token ${PEPE}`);
    await world.say(world.member("2", "bob"), "/token 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2-eth");
    world.clock.advance(HOUR);
    expect(await world.sweep()).toMatchObject({ tokens: 2, klineCalls: 2 });
    world.clock.advance(8 * DAY);
    expect(await world.sweep()).toMatchObject({ tokens: 0, klineCalls: 0 });
  });

  it("stretches each token's period when the plan's share cannot read them all, and the board says so", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    await world.say(world.member("2", "bob"), "/token 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2-eth");
    world.clock.advance(HOUR);
    // 10 units a day: a quarter of it reads one K-line a day, so each token waits two periods... of a day.
    const swept = await world.sweep({ dailyUnits: 40 * 24 });
    expect(swept).toMatchObject({ tokens: 2, read: 1, klineCalls: 1, periodMs: 2 * HOUR });
    expect(textOf(await world.say(world.member("1", "ana"), "/lb"))).toMatch(/2 called tokens are more than the plan reads each period, so each is read every 120 min/);
  });
});

describe("boards, lists and cards", () => {
  it("keeps everything across a restart", async () => {
    await world.say(world.member("1", "ana", { handle: "ana_x" }), `/token ${PEPE}`);
    world.clock.advance(HOUR);
    await world.sweep();
    const before = textOf(await world.say(world.member("2", "bob"), "/calls @ana_x"));
    await store.close();
    store = await openSqliteStore({ path: join(dir, "bot.db") });
    const core = world.restart(store);
    const after = await core.handleText(world.member("2", "bob"), "/calls @ana_x");
    expect(textOf(after!)).toBe(before);
    expect(before).toMatch(/Calls by ana\ntoken \| Called \| At \| High \| Now\nPEPE \| 1h \| \$/);
  });

  it("names a member by a reply, and answers bad input with one sentence", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    const replying = { ...world.member("2", "bob"), repliedTo: { userId: "1", name: "ana", kind: "person" as const } };
    expect(textOf(await world.say(replying, "/calls"))).toMatch(/Calls by ana/);
    expect((await world.say(world.member("2", "bob"), "/lb 13x")).title).toMatch(/"13x" is not a period I know; choose one of: 1d, 7d, 30d, all/);
    expect((await world.say(world.member("2", "bob"), "/pnl 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2-eth")).title).toBe("Nobody in this chat has called WETH.");
    expect((await world.say(world.member("2", "bob"), "/calls @nobody")).title).toMatch(/Nobody called ＠nobody has made a call/);
  });

  it("shows hostile member names as text: no mention, no markup of ours", async () => {
    await world.say(world.member("1", "@everyone <b>x</b>\u202e"), `/token ${PEPE}`);
    const board = textOf(await world.say(world.member("2", "bob"), "/lb"));
    expect(board).toContain("＠everyone <b>x</b>");
    expect(board).not.toContain("@everyone");
    expect(board).not.toContain("\u202e");
  });

  it("ranks by hit rate, then median, then more calls, then the earlier first call", async () => {
    const ids = ["0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2-eth", "0x2260fac5e5542a773aa44fbcfedf7c193bc2c599-eth", PEPE];
    await world.say(world.member("1", "ana"), `/token ${ids[0]}`);
    world.clock.advance(MINUTE);
    await world.say(world.member("2", "bob"), `/token ${ids[1]}`);
    world.clock.advance(MINUTE);
    await world.say(world.member("2", "bob"), `/token ${ids[2]}`);
    world.sandbox.market.movePrice(world.token(ids[2] as string), { fromMinute: (T0 + 10 * MINUTE) / MINUTE, toMinute: (T0 + 10 * MINUTE) / MINUTE, factor: 3 });
    world.clock.advance(HOUR);
    await world.sweep();
    const rows = textOf(await world.say(world.member("3", "cid"), "/lb 1d")).split("\n").filter((l) => /^\d \|/.test(l));
    // bob: one of two calls hit (50 %); ana: none.
    expect(rows[0]).toMatch(/^1 \| bob \| 2 \| 50% \|/);
    expect(rows[1]).toMatch(/^2 \| ana \| 1 \| 0% \|/);
  });
});

/** How /calls and /lb read their words: a member named with spaces, a token after the name, a lone number for /lb's rows. */
const wif = (): string => world.sandbox.market.bySymbol("wif")[0]!.id;

describe("/calls <who>", () => {
  it("names a member whose name has spaces, with or without a token after it, and a member named by a first word", async () => {
    await world.say(world.member("1", "Bob Smith"), `/token ${PEPE}`);
    await world.say(world.member("2", "Bob"), `/token ${wif()}`);
    const ana = world.member("3", "ana");
    expect((await world.say(ana, "/calls Bob Smith")).title).toBe("Calls by Bob Smith");
    expect(textOf(await world.say(ana, "/calls Bob Smith")).match(/^PEPE /mu)).not.toBeNull();
    expect((await world.say(ana, "/calls Bob Smith pepe")).title).toBe("Calls by Bob Smith");
    expect((await world.say(ana, "/calls Bob pepe")).title).toBe("Calls by Bob");
    expect((await world.say(ana, "/calls Bob Jones")).title).toBe("Calls by Bob");
    expect((await world.say(ana, "/calls Carol Smith")).title).toBe("Nobody called Carol Smith has made a call in this chat.");
  });

  it("finds a member whose name has an @ by the name as people type it", async () => {
    await world.say(world.member("1", "Ana @ DeFi"), `/token ${PEPE}`);
    const bob = world.member("2", "bob");
    expect((await world.say(bob, "/calls Ana @ DeFi")).title).toBe("Calls by Ana ＠ DeFi");
    expect((await world.say(bob, "/calls Ana ＠ DeFi")).title).toBe("Calls by Ana ＠ DeFi");
  });
});

describe("/lb [period] [rows]", () => {
  it("reads a lone number as the rows of the default period", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    await world.say(world.member("2", "bob"), `/token ${wif()}`);
    const one = await world.say(world.member("3", "cid"), "/lb 1");
    expect(one.title).toBe("Callers · last 7 days");
    const table = one.blocks.find((b) => b.kind === "table");
    expect(table?.kind === "table" ? table.rows.length : 0).toBe(1);
    expect((await world.say(world.member("3", "cid"), "/lb 25")).title).toBe("Callers · last 7 days");
    expect(textOf(one)).toContain("And 1 more caller; /lb with a number of rows (up to 25) lists more.");
    expect(textOf(await world.say(world.member("3", "cid"), "/lb 2"))).not.toContain("more callers");
  });
});
