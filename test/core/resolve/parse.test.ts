import { describe, expect, it } from "vitest";
import { isInvisible } from "../../../src/core/format/index.js";
import { findAddresses, parseTokenInput } from "../../../src/core/resolve/index.js";
import type { TokenInput } from "../../../src/core/resolve/types.js";
import { messages } from "../../../src/i18n/index.js";

/** Why `input` is malformed, as an English reader reads it; "" when it is not malformed. */
function reasonOf(input: TokenInput): string {
  return input.kind === "malformed" ? messages().translator("en").t(input.said.key, input.said.args) : "";
}

const EVM = "0x6982508145454ce325ddbe47a25d4ec3d2311933";
const EVM_MIXED = "0x6982508145454Ce325dDbE47a25d4ec3d2311933";
const SOL = "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm";
const SOL_PAIR = "58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2";
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";

describe("parseTokenInput", () => {
  it.each([
    [`${EVM}-bsc`, { kind: "id", address: EVM, chain: "bsc" }],
    [`${EVM}-ethereum`, { kind: "id", address: EVM, chain: "eth" }],
    [`${EVM} bsc`, { kind: "id", address: EVM, chain: "bsc" }],
    [`bnb ${EVM}`, { kind: "id", address: EVM, chain: "bsc" }],
    [`${SOL}-solana`, { kind: "id", address: SOL, chain: "solana" }],
    [`\`${EVM}\``, { kind: "address", address: EVM, families: ["evm"] }],
    [`<${EVM}>`, { kind: "address", address: EVM, families: ["evm"] }],
    [` ${EVM_MIXED} `, { kind: "address", address: EVM_MIXED, families: ["evm"] }],
    [SOL, { kind: "address", address: SOL, families: ["solana"] }],
    [TRON, { kind: "address", address: TRON, families: ["tron"] }],
    [`${EVM.slice(0, 10)}\u200B${EVM.slice(10)}\u0000`, { kind: "address", address: EVM, families: ["evm"] }],
  ] as const)("reads %j as an id or address", (text, input) => {
    expect(parseTokenInput(text)).toEqual(input);
  });

  it.each([
    ["PEPE", { kind: "query", text: "PEPE" }],
    ["$PEPE", { kind: "query", text: "PEPE" }],
    ["pepe bsc", { kind: "query", text: "pepe", chain: "bsc" }],
    ["shiba inu", { kind: "query", text: "shiba inu" }],
    ["Wrapped Ether eth", { kind: "query", text: "Wrapped Ether", chain: "eth" }],
    ["usd-coin", { kind: "query", text: "usd-coin" }],
    ["pe\u0000pe\u202E", { kind: "query", text: "pepe" }],
    ['"shiba inu"', { kind: "query", text: "shiba inu" }],
    ["<b>x</b>", { kind: "query", text: "<b>x</b>" }],
  ] as const)("reads %j as a search", (text, input) => {
    expect(parseTokenInput(text)).toEqual(input);
  });

  it.each([
    [`https://dexscreener.com/solana/${SOL_PAIR}`, { kind: "id", address: SOL_PAIR, chain: "solana", isPair: true }],
    [`https://dexscreener.com/ethereum/${EVM}?maker=1`, { kind: "id", address: EVM, chain: "eth", isPair: true }],
    [`dexscreener.com/bsc/${EVM}`, { kind: "id", address: EVM, chain: "bsc", isPair: true }],
    [`https://www.dextools.io/app/en/ether/pair-explorer/${EVM}`, { kind: "id", address: EVM, chain: "eth", isPair: true }],
    [`https://www.dextools.io/app/en/bnb/pair-explorer/${EVM}?t=1`, { kind: "id", address: EVM, chain: "bsc", isPair: true }],
    [`https://www.geckoterminal.com/polygon_pos/pools/${EVM}`, { kind: "id", address: EVM, chain: "polygon", isPair: true }],
    [`https://www.geckoterminal.com/avax/tokens/${EVM}`, { kind: "id", address: EVM, chain: "avalanche" }],
    [`https://birdeye.so/token/${SOL}?chain=solana`, { kind: "id", address: SOL, chain: "solana" }],
    [`https://birdeye.so/token/${EVM}?chain=base`, { kind: "id", address: EVM, chain: "base" }],
    [`https://birdeye.so/token/${SOL}`, { kind: "id", address: SOL, chain: "solana" }],
    [`https://gmgn.ai/sol/token/${SOL}`, { kind: "id", address: SOL, chain: "solana" }],
    [`https://etherscan.io/token/${EVM}`, { kind: "id", address: EVM, chain: "eth" }],
    [`https://etherscan.io/address/${EVM}#code`, { kind: "id", address: EVM, chain: "eth" }],
    [`https://bscscan.com/token/${EVM}?a=0x0000000000000000000000000000000000000001`, { kind: "id", address: EVM, chain: "bsc" }],
    [`https://basescan.org/token/${EVM}`, { kind: "id", address: EVM, chain: "base" }],
    [`https://arbiscan.io/token/${EVM}`, { kind: "id", address: EVM, chain: "arbitrum" }],
    [`https://polygonscan.com/address/${EVM}`, { kind: "id", address: EVM, chain: "polygon" }],
    [`https://snowtrace.io/token/${EVM}`, { kind: "id", address: EVM, chain: "avalanche" }],
    [`https://solscan.io/token/${SOL}`, { kind: "id", address: SOL, chain: "solana" }],
    [`https://tronscan.org/#/token20/${TRON}`, { kind: "id", address: TRON, chain: "tron" }],
    [`https://pump.fun/${SOL}`, { kind: "id", address: SOL, chain: "solana" }],
    [`https://pump.fun/coin/${SOL}`, { kind: "id", address: SOL, chain: "solana" }],
    [`https://example-market.io/token/${EVM}-bsc`, { kind: "id", address: EVM, chain: "bsc" }],
    [`https://some.site/x/${SOL}`, { kind: "address", address: SOL, families: ["solana"] }],
  ] as const)("reads the link %s", (text, input) => {
    expect(parseTokenInput(text)).toEqual(input);
  });

  it.each([
    ["0x6982508145454ce325ddbe47a25d4ec3d231193", "it has 39 hex digits, not 40"],
    ["0x123", "it has 3 hex digits, not 40"],
    ["0x123 bsc", "it has 3 hex digits, not 40"],
    ["0x6982508145454ce325ddbe47a25d4ec3d2311933ab-bsc", "it has 42 hex digits, not 40"],
    ["0x6982508145454ce325ddbe47a25d4ec3d231193g", `"g" is not a hex digit`],
    ["0x6982508145454ce325ddbe47a25d4ec3d23119 bsc", "it has 38 hex digits, not 40"],
    [`0x${"a".repeat(64)}`, "transaction hash"],
    ["EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcj0", `it contains "0"`],
    ["EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjmEKpQ", "it has 48 characters, not 32 to 44"],
    ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6O", `a Tron address, but it contains "O"`],
    [`https://etherscan.io/token/${EVM.slice(0, -1)}`, "39 hex digits"],
    ["https://dexscreener.com/", "can't find a token address in that link"],
    ["https://example.com/about", "can't find a token address in that link"],
    ["", "Send a token symbol"],
    ["x".repeat(600), "too long"],
    ["a".repeat(70), "too long for a token symbol"],
    [`${EVM} ${SOL} and more`, "one token at a time"],
  ] as const)("explains what is wrong with %j", (text, reason) => {
    const input = parseTokenInput(text);
    expect(input.kind).toBe("malformed");
    expect(reasonOf(input)).toContain(reason);
  });

  it("writes the full sentence for a 39-digit address", () => {
    expect(reasonOf(parseTokenInput("0x6982508145454ce325ddbe47a25d4ec3d231193"))).toBe(
      "That looks like an EVM address, but it has 39 hex digits, not 40.",
    );
  });

  it("drops every character of the one invisible list (format/clean.ts) around an address", () => {
    for (const ch of ["\u200b", "\u202e", "\ufeff", "\u0007", "\u009f", "\u115f", "\u3164", "\uffa0"]) {
      expect(isInvisible(ch)).toBe(true);
      expect(parseTokenInput(`${ch}${EVM}${ch}`)).toEqual({ kind: "address", address: EVM, families: ["evm"] });
      expect(findAddresses(`see ${ch}${EVM}${ch} here`)).toEqual([{ kind: "address", address: EVM, families: ["evm"] }]);
    }
  });

  it("reads an address printed with an upper-case 0X as the address", () => {
    const upper = `0X${EVM.slice(2).toUpperCase()}`;
    expect(parseTokenInput(upper)).toEqual({ kind: "address", address: `0x${EVM.slice(2).toUpperCase()}`, families: ["evm"] });
    expect(parseTokenInput(`${upper} bsc`)).toEqual({ kind: "id", address: `0x${EVM.slice(2).toUpperCase()}`, chain: "bsc" });
    expect(findAddresses(`buy ${upper} now`)).toEqual([{ kind: "address", address: `0x${EVM.slice(2).toUpperCase()}`, families: ["evm"] }]);
    expect(parseTokenInput("0XBTC")).toEqual({ kind: "query", text: "0XBTC" });
  });

  it("takes the one address out of a sentence with more words", () => {
    expect(parseTokenInput(`check ${EVM} on bsc`)).toEqual({ kind: "id", address: EVM, chain: "bsc" });
  });
});

describe("findAddresses", () => {
  it("finds a contract pasted among other words", () => {
    expect(findAddresses(`gm frens, new gem: ${EVM}. LFG!`)).toEqual([{ kind: "address", address: EVM, families: ["evm"] }]);
  });

  it("takes a chain named right after an address", () => {
    expect(findAddresses(`ape ${EVM} on base now`)).toEqual([{ kind: "id", address: EVM, chain: "base" }]);
    expect(findAddresses(`(${SOL} solana)`)).toEqual([{ kind: "id", address: SOL, chain: "solana" }]);
  });

  it("finds links and ids in running text", () => {
    expect(findAddresses(`chart: https://dexscreener.com/solana/${SOL_PAIR} and ${EVM}-bsc`)).toEqual([
      { kind: "id", address: SOL_PAIR, chain: "solana", isPair: true },
      { kind: "id", address: EVM, chain: "bsc" },
    ]);
  });

  it("reports each address once, whatever its case", () => {
    expect(findAddresses(`${EVM} ${EVM_MIXED} "${EVM}"`)).toEqual([{ kind: "address", address: EVM, families: ["evm"] }]);
  });

  it("finds an address with a zero-width space copied inside it", () => {
    expect(findAddresses(`buy ${EVM.slice(0, 20)}\u200B${EVM.slice(20)} now`)).toEqual([
      { kind: "address", address: EVM, families: ["evm"] },
    ]);
  });

  it("returns at most three", () => {
    const many = Array.from({ length: 6 }, (_, i) => `0x${String(i).repeat(40)}`).join(" ");
    expect(findAddresses(many)).toHaveLength(3);
  });

  it("ignores symbols, almost-addresses, transaction hashes and plain chatter", () => {
    expect(
      findAddresses(`PEPE to the moon 0x6982508145454ce325ddbe47a25d4ec3d231193 0x${"b".repeat(64)} https://example.com/`),
    ).toEqual([]);
  });

  it("finds a Tron address and a Solana address in one message", () => {
    expect(findAddresses(`${TRON}\n${SOL}`)).toEqual([
      { kind: "address", address: TRON, families: ["tron"] },
      { kind: "address", address: SOL, families: ["solana"] },
    ]);
  });
});
