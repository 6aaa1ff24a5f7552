import { beforeEach, describe, expect, it } from "vitest";
import { ENGINES, storeEngines, type TestDatabase } from "./engines.js";

const engines = storeEngines();

describe.each(ENGINES)("button actions on %s", (engine) => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await engines.database(engine);
  });

  it("keeps an action under its key until it expires, across a reopen", async () => {
    const first = await db.open();
    await first.buttonActions.putAction("k1", "/chart pepe 1h", 2_000);
    await first.close();
    const second = await db.open();
    expect(await second.buttonActions.getAction("k1", 1_999)).toBe("/chart pepe 1h");
    expect(await second.buttonActions.getAction("k1", 2_000)).toBeUndefined();
    expect(await second.buttonActions.getAction("nope", 0)).toBeUndefined();
  });

  it("renews a known key without ever shortening its life, and prunes only what expired", async () => {
    const store = await db.open();
    await store.buttonActions.putAction("long", "a", 10_000);
    await store.buttonActions.putAction("long", "b", 5_000);
    await store.buttonActions.putAction("short", "c", 1_000);
    expect(await store.buttonActions.getAction("long", 9_000)).toBe("b");
    expect(await store.buttonActions.pruneActions(1_000)).toBe(1);
    expect(await store.buttonActions.getAction("long", 1_000)).toBe("b");
  });
});
