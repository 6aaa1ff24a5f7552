/**
 * Chain suggestions for autocomplete, answered without a call: Discord gives an autocomplete
 * 3 seconds and no way to defer, and the core's list of supported chains is only reachable
 * through an awaited market call. The names are the service's own spelling of the chains the
 * core's alias table knows; a chain missing here can still be typed, since autocomplete only
 * suggests.
 */
import type { Choice } from "../../core/bot-core.js";
import { knownChain } from "../../core/resolve/index.js";

/** Chains offered before anything is typed, most used first. */
export const COMMON_CHAINS: readonly string[] = [
  "eth", "bsc", "solana", "base", "arbitrum", "polygon", "tron", "avalanche", "optimism", "blast", "merlin", "core",
];

/**
 * Chains for what was typed: the chain an alias stands for first (`ethereum` → eth), then
 * names starting with the text, then names containing it.
 */
export function chainChoices(typed: string): Choice[] {
  const q = typed.trim().toLowerCase();
  const alias = q === "" ? undefined : knownChain(q);
  const ranked = [
    ...(alias === undefined ? [] : [alias]),
    ...COMMON_CHAINS.filter((c) => c.startsWith(q)),
    ...COMMON_CHAINS.filter((c) => !c.startsWith(q) && c.includes(q)),
  ];
  return [...new Set(ranked)].map((c) => ({ name: c, value: c }));
}
