/** Commands for the adapter tests, each showing one kind of reply. */
import type { Command } from "../../../src/core/command.js";
import { UserError } from "../../../src/core/errors.js";
import type { Reply } from "../../../src/core/reply.js";

export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve: (v: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The smallest valid PNG (1×1), enough for an upload. */
export const PNG = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64"),
);

export interface TestKnobs {
  /** Price each token shows; a refresh shows whatever it is now. */
  prices: Map<string, string>;
  /** `/slow` waits for this. */
  slowGate: { promise: Promise<void>; resolve: (v: void) => void };
}

export function tokenCard(id: string, price: string): Reply {
  return {
    title: `${id.toUpperCase()} price`,
    url: `https://example.com/tokens/${encodeURIComponent(id)}`,
    tone: "info",
    blocks: [{ kind: "fields", fields: [{ label: "Price", value: price }, { label: "Id", value: id }] }],
    actions: [
      [
        { kind: "command", label: "Refresh", command: "price", args: [id], edit: true },
        { kind: "command", label: "Holders", command: "holders", args: [id], edit: false },
      ],
      [{ kind: "url", label: "Explorer", url: `https://example.com/explorer/${encodeURIComponent(id)}` }],
    ],
    footer: { source: "test data", asOf: Date.UTC(2026, 10, 22, 12, 0) },
  };
}

const token = { name: "token", description: "a token", type: "token", required: true } as const;

export function testCommands(knobs: TestKnobs): Command[] {
  const cmd = (name: string, run: Command["run"], args: Command["args"] = [token]): Command => ({
    name,
    description: `/${name} for tests`,
    args,
    examples: [`/${name} pepe`],
    run,
  });
  return [
    cmd("price", async (_ctx, a) => tokenCard(String(a.token), knobs.prices.get(String(a.token)) ?? "$1.00")),
    cmd("token", async (_ctx, a) => tokenCard(String(a.token), knobs.prices.get(String(a.token)) ?? "$1.00")),
    cmd("holders", async (_ctx, a) => ({
      title: `Top holders of ${String(a.token)}`,
      tone: "info",
      blocks: [{ kind: "table", columns: ["#", "wallet", "share"], rows: [["1", "0xabc", "12.5 %"], ["2", "0xdef", "3.1 %"]], align: ["right", "left", "right"] }],
      actions: [],
    })),
    cmd("search", async (_ctx, a) => ({ title: `Tokens named ${String(a.token)}`, tone: "info", blocks: [], actions: [] })),
    cmd("risk", async () => {
      throw new UserError("I don't know that token.");
    }),
    cmd("boom", async () => {
      throw new Error("the test core broke on purpose");
    }, []),
    cmd("slow", async () => {
      await knobs.slowGate.promise;
      return { title: "slow answer", tone: "info", blocks: [], actions: [] };
    }, []),
    cmd("long", async () => ({
      title: "A very long answer",
      tone: "info",
      blocks: Array.from({ length: 12 }, (_, i) => ({ kind: "text" as const, text: `Paragraph ${i}: ${"lorem ipsum & <dolor> ".repeat(40)}` })),
      actions: [],
      footer: { source: "test data" },
    }), []),
    cmd("chart", async (_ctx, a) => ({
      title: `Chart of ${String(a.token)}`,
      tone: "info",
      blocks: [{ kind: "text", text: "candles ".repeat(300) }],
      image: { png: PNG, alt: "a candlestick chart", filename: "chart.png" },
      actions: [[{ kind: "command", label: "1h", command: "chart", args: [String(a.token)], edit: true }]],
    })),
    cmd("help", async () => ({ title: "What I can do", tone: "info", blocks: [{ kind: "text", text: "/price, /token, /holders" }], actions: [] }), []),
  ];
}
