/** Wallet addresses of a token's synthetic traders and holders, in its chain's format. */
import { evmAddress, solanaAddress, tronAddress } from "./rng.js";
import type { SandboxToken } from "./types.js";

/** A wallet address of the token's chain, numbered within the token's holder pool. */
export function walletOf(token: SandboxToken, n: number): string {
  if (token.chainDef.family === "solana") return solanaAddress(token.key, 404, n);
  if (token.chainDef.family === "tron") return tronAddress(token.key, 404, n);
  return evmAddress(token.key, 404, n);
}

