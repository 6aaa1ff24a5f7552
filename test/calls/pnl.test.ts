import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderPnlSvg, type PnlCardSpec } from "../../src/chart/index.js";
import type { ChartRenderer } from "../../src/chart/types.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";
import { HOUR, MINUTE, PEPE, startCallsWorld, T0, textOf, type CallsWorld } from "./calls-world.js";

let dir: string;
let store: Store;
let world: CallsWorld;
const cards: PnlCardSpec[] = [];
/** Draws each card as its SVG's bytes, so the test reads what the picture says. */
const charts: ChartRenderer = {
  render: () => Promise.reject(new Error("no charts here")),
  renderCard: async (spec) => {
    cards.push(spec);
    return new TextEncoder().encode(renderPnlSvg(spec));
  },
  close: async () => undefined,
};

beforeEach(async () => {
  cards.length = 0;
  dir = mkdtempSync(join(tmpdir(), "chainpulse-pnl-"));
  store = await openSqliteStore({ path: join(dir, "bot.db") });
  world = await startCallsWorld(store, { charts });
});

afterEach(async () => {
  await world.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("/pnl", () => {
  it("draws the chat's call with the high the sweep kept, when it came, and now, in English and Chinese", async () => {
    await world.say(world.member("1", "<ana & \"co\">"), `/token ${PEPE}`);
    world.sandbox.market.movePrice(world.token(PEPE), { fromMinute: (T0 + 30 * MINUTE) / MINUTE, toMinute: (T0 + 30 * MINUTE) / MINUTE, factor: 3 });
    world.clock.advance(HOUR);
    await world.sweep();
    const reply = await world.say(world.member("2", "bob"), "/pnl pepe");
    expect(reply.title).toMatch(/^PEPE call: high (2\.9|3\.\d)× \(2\dm after the call\) · now (0\.9\d|1\.0)×$/);
    expect(reply.image?.filename).toBe("pnl.png");
    // The high drawn large is coloured as a high, whatever the call is worth now.
    expect(cards.at(-1)?.up).toBe(true);
    const svg = new TextDecoder().decode(reply.image?.png);
    expect(svg).toContain("called by &lt;ana &amp; &quot;co&quot;&gt;");
    expect(svg).not.toContain("<ana");
    expect(textOf(reply)).toMatch(/Market cap at the call: \$[\d.,]+[KMB]?/);
    // When the call was made, as a time a forwarded picture still tells, and how long ago.
    expect(textOf(reply)).toMatch(/Called: \d{4}-\d\d-\d\d \d\d:\d\d UTC · 1h ago/);
    await world.say(world.member("9", "mod", { admin: true }), "/settings language zh");
    const zh = await world.say(world.member("2", "bob"), "/pnl pepe");
    expect(zh.title).toMatch(/^PEPE 喊单：最高 (2\.9|3\.\d)×（喊单后 2\d分钟）· 现在 (0\.9\d|1\.0)×$/);
    expect(cards.at(-1)?.headlineLabel).toBe("喊单后最高倍数");
    expect(textOf(zh)).toMatch(/喊单时间: \d{4}-\d\d-\d\d \d\d:\d\d UTC · 1小时前/);
  });

  it("says a high in the call's own minute came at the call, not \"just now after\" it", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    const minute = Math.floor(T0 / MINUTE);
    world.sandbox.market.movePrice(world.token(PEPE), { fromMinute: minute + 1, toMinute: minute + 60, factor: 0.5 });
    world.clock.advance(HOUR);
    await world.sweep();
    expect((await world.say(world.member("2", "bob"), "/pnl pepe")).title).toMatch(/^PEPE call: high 1\.0× \(at the call\) · now 0\.\d+×$/);
    await world.say(world.member("9", "mod", { admin: true }), "/settings language zh");
    expect((await world.say(world.member("2", "bob"), "/pnl pepe")).title).toMatch(/^PEPE 喊单：最高 1\.0×（喊单时）· 现在 0\.\d+×$/);
  });

  it("says a high in the minute after a call made late in its minute came a minute after, not at the call", async () => {
    world.clock.advance(50_000);
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    // The spike's knot at 12:02:00 closes the 12:01 K-line: a high 10 s after the call's 12:00:50 by the bucket's start.
    const knot = Math.floor(T0 / MINUTE) + 2;
    world.sandbox.market.movePrice(world.token(PEPE), { fromMinute: knot, toMinute: knot, factor: 3 });
    world.clock.advance(HOUR);
    await world.sweep();
    expect((await world.say(world.member("2", "bob"), "/pnl pepe")).title).toMatch(/^PEPE call: high (2\.9|3\.\d)× \(1m after the call\) · now /);
  });

  it("says a call older than the sweep's 7 days that was never read will not be, rather than \"not yet\"", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    world.clock.advance(8 * 24 * HOUR);
    const reply = await world.say(world.member("2", "bob"), "/pnl pepe");
    expect(cards.at(-1)?.rows.at(-1)).toEqual({ label: "Read", value: "never — calls are read for 7 days after they are made" });
    expect(textOf(reply)).not.toContain("not yet");
  });

  it("before the sweep has read a price after the call, says so instead of a read at the call's time", async () => {
    await world.say(world.member("1", "ana"), `/token ${PEPE}`);
    world.clock.advance(5 * MINUTE);
    const reply = await world.say(world.member("2", "bob"), "/pnl pepe");
    expect(textOf(reply)).toContain("Read: not yet — prices are read every 60 min");
    expect(cards.at(-1)?.rows.at(-1)).toEqual({ label: "Read", value: "not yet — prices are read every 60 min" });
    await world.say(world.member("9", "mod", { admin: true }), "/settings language zh");
    expect(textOf(await world.say(world.member("2", "bob"), "/pnl pepe"))).toContain("读取于: 尚未读取（每 60 分钟读取一次价格）");
    world.clock.advance(HOUR);
    await world.sweep();
    // The time of the read itself, so that a forwarded picture still tells it.
    expect(textOf(await world.say(world.member("2", "bob"), "/pnl pepe"))).toMatch(/读取于: \d{4}-\d\d-\d\d \d\d:\d\d UTC · 刚刚/);
  });
});
