/**
 * How /calls and /lb read their words in a group: a member named with spaces, a token after the
 * name, a lone number for /lb's rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import type { Store } from "../../src/store/types.js";
import { PEPE, startCallsWorld, textOf, type CallsWorld } from "../calls/calls-world.js";

let dir: string;
let store: Store;
let world: CallsWorld;
const wif = (): string => world.sandbox.market.bySymbol("wif")[0]!.id;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "chainpulse-calls-words-"));
  store = await openSqliteStore({ path: join(dir, "bot.db") });
  world = await startCallsWorld(store);
});

afterEach(async () => {
  await world.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

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
  });
});
