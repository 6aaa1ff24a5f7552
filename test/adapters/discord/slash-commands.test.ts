import { describe, expect, it } from "vitest";
import { renderButtons, createActionStore } from "../../../src/adapters/discord/buttons.js";
import { chainChoices } from "../../../src/adapters/discord/chain-choices.js";
import { commandPayloads, namedOptions } from "../../../src/adapters/discord/slash-commands.js";
import { CHART_INTERVALS } from "../../../src/core/commands/chart.js";
import { createCommandList } from "../../../src/core/commands/index.js";
import type { Command } from "../../../src/core/command.js";
import { KNOWN_CHAINS, knownChain } from "../../../src/core/resolve/index.js";
import type { Action } from "../../../src/core/reply.js";
import { checkApplicationCommand, checkMessageBody } from "../../fakes/discord-limits.js";

const COMMANDS = createCommandList();
const CHAINS = Array.from({ length: 30 }, (_, i) => `chain${i}`);

/** Declarations only: the payloads are built from a command's arguments, never by running it. */
const wide: Command = {
  name: "wide",
  description: "Tokens of one of many chains",
  examples: ["/wide chain3"],
  args: [{ name: "chain", description: "chain", type: "chain", required: true, choices: CHAINS }],
  run: async () => {
    throw new Error("not run here");
  },
};

/** A chain from a short fixed list and a bounded page, as a command may declare them. */
const listed: Command = {
  ...wide,
  name: "listed",
  args: [
    { name: "chain", description: "chain", type: "chain", required: false, choices: ["eth", "bsc", "solana"] },
    { name: "page", description: "page", type: "int", required: false, min: 1, max: 10 },
  ],
};

function registered(name: string): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) throw new Error(`no /${name} in the registry`);
  return command;
}

describe("slash command payloads from the registry", () => {
  const payloads = commandPayloads([...COMMANDS, listed, wide]);
  const byName = new Map(payloads.map((p) => [p.name, p as unknown as Record<string, unknown>]));

  it("registers every command and the Token card menu command, all valid for Discord", () => {
    expect([...byName.keys()]).toEqual([...COMMANDS.map((c) => c.name), "listed", "wide", "Token card"]);
    expect(payloads.flatMap((p, i) => checkApplicationCommand(p, `commands[${i}]`))).toEqual([]);
    expect(byName.get("Token card")?.type).toBe(3);
  });

  it("names the Token card menu command in Chinese for Chinese clients, from the message files", () => {
    expect(byName.get("Token card")?.name_localizations).toEqual({ "zh-CN": "代币卡片", "zh-TW": "代币卡片" });
  });

  it("registers the core's whole registry as it is, /autodetect included with its on/off choices", () => {
    const real = commandPayloads(COMMANDS);
    expect(real.map((p) => p.name)).toEqual([...COMMANDS.map((c) => c.name), "Token card"]);
    expect(real.flatMap((p, i) => checkApplicationCommand(p, `commands[${i}]`))).toEqual([]);
    const autodetect = real.find((p) => p.name === "autodetect") as unknown as { options: Record<string, unknown>[] };
    expect(autodetect.options).toEqual([
      expect.objectContaining({ name: "state", required: false, choices: [expect.objectContaining({ value: "on" }), expect.objectContaining({ value: "off" })] }),
    ]);
  });

  it("turns a token list into one autocompleted string option named after it", () => {
    expect(byName.get("price")?.options).toEqual([
      expect.objectContaining({ name: "tokens", type: 3, required: true, autocomplete: true }),
    ]);
  });

  it("offers chain choices and bounds integers", () => {
    const [chain, page] = byName.get("listed")?.options as Record<string, unknown>[];
    expect(chain).toMatchObject({ name: "chain", type: 3, required: false });
    expect(chain?.choices).toEqual(["eth", "bsc", "solana"].map((c) => ({ name: c, value: c })));
    expect(page).toMatchObject({ name: "page", type: 4, min_value: 1, max_value: 10 });
  });

  it("autocompletes a choice list longer than Discord's 25 instead of cutting it", () => {
    const [chain] = byName.get("wide")?.options as Record<string, unknown>[];
    expect(chain).toMatchObject({ autocomplete: true });
    expect(chain?.choices).toBeUndefined();
  });

  it("autocompletes a chain option without a fixed list and offers every chart interval as an exact choice", () => {
    const candles: Command = {
      ...wide,
      name: "candles",
      args: [
        { name: "chain", description: "chain", type: "chain", required: true },
        { name: "interval", description: "candle length", type: "interval", required: false },
      ],
    };
    const [payload] = commandPayloads([candles]);
    const [chain, interval] = (payload as unknown as { options: Record<string, unknown>[] }).options;
    expect(chain).toMatchObject({ name: "chain", autocomplete: true });
    expect(interval?.autocomplete).toBeUndefined();
    expect(interval?.choices).toEqual(expect.arrayContaining([{ name: "1m", value: "1m" }, { name: "1M", value: "1M" }]));
    expect(interval?.choices).toHaveLength(Object.keys(CHART_INTERVALS).length);
  });

  it("suggests chain names from what was typed, an alias first, without asking the service", () => {
    expect(chainChoices("ethereum")[0]).toEqual({ name: "eth", value: "eth" });
    expect(chainChoices("ar").map((c) => c.value)).toEqual(["arbitrum"]);
    expect(chainChoices("").length).toBeLessThanOrEqual(25);
    for (const chain of KNOWN_CHAINS) expect(knownChain(chain)).toBe(chain);
  });

  it("reads options back by the name of the argument each stands for, leaving out those not given", () => {
    expect(namedOptions(registered("price"), () => "pepe bsc,  wif")).toEqual(new Map([["tokens", "pepe bsc,  wif"]]));
    const options = new Map<string, number | string>([["chain", "eth"], ["page", 3]]);
    expect(namedOptions(listed, (n) => options.get(n))).toEqual(new Map([["chain", "eth"], ["page", "3"]]));
    // A later option without an earlier one stays bound to its own name.
    expect(namedOptions(listed, (n) => (n === "page" ? 3 : undefined))).toEqual(new Map([["page", "3"]]));
  });
});

describe("buttons from reply actions", () => {
  const longArgs = ["0x6982508145454ce325ddbe47a25d4ec3d2311933-eth", "x".repeat(300)];

  it("keeps custom ids within 100 characters whatever the arguments, and maps them back", async () => {
    const store = createActionStore();
    const [row] = renderButtons([[{ kind: "command", label: "Open", command: "token", args: longArgs, edit: false }]], store);
    const id = (row?.components[0] as { custom_id: string }).custom_id;
    expect(id.length).toBeLessThanOrEqual(100);
    expect(await store.get(id.slice(3))).toEqual({ command: "token", args: longArgs, edit: false });
  });

  it("wraps long rows, stops at five rows, cuts labels to 80 and drops links that are not http(s)", () => {
    const store = createActionStore();
    const row: Action[] = Array.from({ length: 40 }, (_, i) => ({
      kind: "command",
      label: `${i} ${"L".repeat(100)}`,
      command: "token",
      args: [String(i)],
      edit: false,
    }));
    const rows = renderButtons([row, [{ kind: "url", label: "x", url: "javascript:alert(1)" }]], store);
    expect(rows.map((r) => r.components.length)).toEqual([5, 5, 5, 5, 5]);
    expect(checkMessageBody({ components: rows })).toEqual([]);
    expect(renderButtons([[{ kind: "url", label: "bad", url: "javascript:alert(1)" }]], store)).toEqual([]);
  });

  it("forgets an action too long for its custom id after its time to live, and keeps one that fits in it", async () => {
    let clock = 1_000_000;
    const store = createActionStore({ ttlMs: 1000, now: () => clock });
    const stored = store.put({ command: "token", args: longArgs, edit: true });
    const inline = store.put({ command: "price", args: ["pepe"], edit: true });
    clock += 999;
    expect(await store.get(stored)).toEqual({ command: "token", args: longArgs, edit: true });
    clock += 2;
    expect(await store.get(stored)).toBeUndefined();
    expect(await store.get(inline)).toEqual({ command: "price", args: ["pepe"], edit: true });
  });
});
