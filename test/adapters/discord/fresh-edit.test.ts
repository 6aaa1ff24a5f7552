import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Command } from "../../../src/core/command.js";
import type { Reply } from "../../../src/core/reply.js";
import { deferred, startHarness, type Harness } from "./harness.js";
import { createTestCore } from "./test-core.js";

type Embed = { title?: string; fields?: { name: string; value: string }[]; footer?: { text: string } };

describe("Discord: a deferred answer that showed older data", () => {
  let h: Harness;
  const slowFirst = deferred();
  const asked: number[] = [];

  /** The first run is slow (so the interaction is deferred) and finds only older data; every later run finds fresh data. */
  const price: Command = {
    name: "price",
    description: "Price of a token",
    examples: ["/price pepe"],
    args: [{ name: "tokens", description: "symbols", type: "token", required: true, variadic: true }],
    run: async (): Promise<Reply> => {
      asked.push(asked.length + 1);
      const first = asked.length === 1;
      if (first) await slowFirst.promise;
      return {
        title: "Price: pepe",
        tone: "info",
        blocks: [{ kind: "fields", fields: [{ label: "pepe", value: first ? "$1.00" : "$1.20" }] }],
        actions: [],
        footer: { source: "test data", asOf: Date.now() - (first ? 240_000 : 0), ...(first ? { stale: true } : {}) },
      };
    },
  };

  beforeAll(async () => {
    h = await startHarness({ core: createTestCore({ commands: [price] }), adapter: { ackWithinMs: 100 } });
  });
  afterAll(() => h.close());

  it("is edited with the fresh price once the command, run again, finds it", async () => {
    const ia = h.fake.chatInput({ name: "price", options: [{ name: "tokens", type: 3, value: "pepe" }] });
    expect(((await ia.acknowledged()).body as { type?: number }).type).toBe(5);
    slowFirst.resolve();
    const older = await ia.settled();
    if (older.kind !== "message") throw new Error(older.kind);
    expect(JSON.stringify(older.request.body)).toContain("$1.00");
    // The adapter runs the command again after its grace and edits the same answer in place.
    const edit = await h.fake.waitFor(
      (r) => r.method === "PATCH" && r.path.endsWith("/messages/@original") && r.path.includes(ia.token) && r !== older.request,
      { timeoutMs: 20_000 },
    );
    const embeds = (edit.body as { embeds: Embed[] }).embeds;
    expect(embeds[0]?.fields?.find((f) => f.name === "pepe")?.value).toBe("$1.20");
    expect(asked.length).toBe(2);
    expect(h.fake.violations).toEqual([]);
  });
});
