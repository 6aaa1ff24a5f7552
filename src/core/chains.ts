/** Chain names as people type them, checked against the service's supported chains. */
import { answerSettings } from "./answer-settings.js";
import type { CommandContext } from "./command.js";
import { cleanText } from "./format/index.js";
import { toServiceChain } from "./resolve/chains.js";

/**
 * The wrapped native coin of each chain: what K-line category `m` ("relative to the main
 * token") counts in. A Map, looked up by the service's chain name.
 */
const MAIN_TOKENS: ReadonlyMap<string, string> = new Map([
  ["eth", "WETH"], ["bsc", "WBNB"], ["solana", "SOL"], ["base", "WETH"], ["arbitrum", "WETH"], ["polygon", "WPOL"],
  ["tron", "WTRX"], ["avalanche", "WAVAX"], ["optimism", "WETH"], ["blast", "WETH"], ["merlin", "WBTC"], ["core", "WCORE"],
]);

/** The symbol of `chain`'s main token (`WETH` on eth); undefined for a chain this table does not know. */
export function mainTokenOf(chain: string): string | undefined {
  return MAIN_TOKENS.get(chain);
}

/** Used when a chat has no default chain and a command needs one, if the service supports it. */
export const FALLBACK_CHAIN = "eth";

/**
 * The service's chain name for what someone typed (name, alias or numeric chain id); UserError if unknown.
 * The chain list only names the chain, so it is not returned: no reply is dated by it.
 */
export async function resolveChain(ctx: CommandContext, input: string): Promise<{ chain: string }> {
  const chains = await ctx.market.supportedChains();
  const q = input.trim().toLowerCase();
  const wanted = toServiceChain(q);
  const match = chains.data.find(
    (c) => c.chain.toLowerCase() === wanted || c.chain_id === wanted || (c.name ?? "").toLowerCase() === wanted,
  );
  if (match === undefined) {
    const known = chains.data.map((c) => cleanText(c.chain, 16)).join(", ");
    throw ctx.i18n.fail("chain-unknown", { chain: cleanText(input, 24), known });
  }
  return { chain: match.chain };
}

/** The chat's default chain, else `FALLBACK_CHAIN` when supported, else the service's first chain. */
export async function defaultChain(ctx: CommandContext): Promise<string> {
  const settings = await answerSettings(ctx);
  if (settings.defaultChain !== undefined) return settings.defaultChain;
  const chains = await ctx.market.supportedChains();
  if (chains.data.some((c) => c.chain === FALLBACK_CHAIN)) return FALLBACK_CHAIN;
  const first = chains.data[0];
  if (first === undefined) throw ctx.i18n.fail("chain-none-listed");
  return first.chain;
}
