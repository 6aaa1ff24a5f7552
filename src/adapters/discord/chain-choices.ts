/**
 * Chain suggestions for autocomplete, answered without a call: Discord gives an autocomplete
 * 3 seconds and no way to defer, and the core's list of supported chains is only reachable
 * through an awaited market call. The names are the chains the core's alias table knows; a
 * chain missing there can still be typed, since autocomplete only suggests.
 */
import type { Choice } from "../../core/bot-core.js";
import { KNOWN_CHAINS, knownChain } from "../../core/resolve/index.js";

/**
 * Chains for what was typed: the chain an alias stands for first (`ethereum` → eth), then
 * names starting with the text, then names containing it.
 */
export function chainChoices(typed: string): Choice[] {
  const q = typed.trim().toLowerCase();
  const alias = q === "" ? undefined : knownChain(q);
  const ranked = [
    ...(alias === undefined ? [] : [alias]),
    ...KNOWN_CHAINS.filter((c) => c.startsWith(q)),
    ...KNOWN_CHAINS.filter((c) => !c.startsWith(q) && c.includes(q)),
  ];
  return [...new Set(ranked)].map((c) => ({ name: c, value: c }));
}
