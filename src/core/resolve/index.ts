/** Token resolution: what people type or paste → `<address>-<chain>`. */
export { findAddresses, parseTokenInput } from "./parse.js";
export { pairTarget, resolveToken, type ResolveOptions } from "./resolve.js";
export { KNOWN_CHAINS, knownChain } from "./chains.js";
export type { Resolution, TokenInput } from "./types.js";
