/**
 * Token and pair ids (`<address>-<chain>`) and address formats per chain family.
 * service-notes.md: split at the last hyphen (pair ids can carry suffixes such as `…_fo-bsc`);
 * EVM addresses are 0x + 40 hex and come back lowercase; Solana base58 is case-sensitive.
 */

export type ChainFamily = "evm" | "solana" | "tron";

/** Chains whose addresses are not EVM hex; every other chain name is taken as EVM. */
const NON_EVM: ReadonlyMap<string, ChainFamily> = new Map([["solana", "solana"], ["tron", "tron"]]);

export function chainFamily(chain: string): ChainFamily {
  return NON_EVM.get(chain.toLowerCase()) ?? "evm";
}

const EVM = /^0x[0-9a-fA-F]{40}$/;
// Base58 (no 0, O, I, l); Solana public keys are 32 bytes: 32–44 characters.
const SOLANA = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
// Tron base58check addresses start with T and are 34 characters.
const TRON = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

export function isEvmAddress(s: string): boolean {
  return EVM.test(s);
}
export function isSolanaAddress(s: string): boolean {
  return SOLANA.test(s);
}
export function isTronAddress(s: string): boolean {
  return TRON.test(s);
}

/** Whether `address` has the format of `chain`'s family. */
export function isAddressFor(address: string, chain: string): boolean {
  switch (chainFamily(chain)) {
    case "evm":
      return isEvmAddress(address);
    case "solana":
      return isSolanaAddress(address);
    case "tron":
      return isTronAddress(address);
  }
}

/** The chain families whose format `address` has (a Tron address is also valid base58). */
export function familiesOf(address: string): ChainFamily[] {
  const out: ChainFamily[] = [];
  if (isEvmAddress(address)) out.push("evm");
  if (isTronAddress(address)) out.push("tron");
  else if (isSolanaAddress(address)) out.push("solana");
  return out;
}

/** Canonical form: EVM addresses lowercase, others exactly as given. */
export function normalizeAddress(address: string, chain: string): string {
  return chainFamily(chain) === "evm" ? address.toLowerCase() : address;
}

export interface SplitId {
  address: string;
  chain: string;
}

/** Splits `<address>-<chain>` at the last hyphen; `null` when either side is empty. */
export function splitId(id: string): SplitId | null {
  const i = id.lastIndexOf("-");
  if (i <= 0 || i === id.length - 1) return null;
  return { address: id.slice(0, i), chain: id.slice(i + 1) };
}

export function joinId(address: string, chain: string): string {
  return `${normalizeAddress(address, chain)}-${chain}`;
}
