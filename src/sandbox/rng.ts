/**
 * Deterministic randomness: a stateless integer hash for values computed on demand (prices,
 * trades, holders as functions of token and time) and a small seeded generator for the one
 * pass that builds the market.
 */

/** 32-bit avalanche hash of any number of 32-bit integers. */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) h = mix(h, p);
  return h >>> 0;
}

function mix(h: number, p: number): number {
  h = Math.imul(h ^ (p | 0), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** hash32 of exactly three parts, without a rest array: the price walk's hot path. */
export function hash3(a: number, b: number, c: number): number {
  return mix(mix(mix(0x811c9dc5, a), b), c) >>> 0;
}

/** Uniform value in [0, 1) from the hash of `parts`. */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 4294967296;
}

/** Hash of a string, for labels and ids. */
export function hashString(s: string): number {
  let h = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
  return hash32(h, s.length);
}

/** Seeded generator (mulberry32): the same seed gives the same sequence. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = hash32(seed) || 1;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Log-uniform in [min, max): spreads values over orders of magnitude. */
  logUniform(min: number, max: number): number {
    return Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min)));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

const HEX = "0123456789abcdef";
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * `length` characters of `alphabet` drawn from the hash stream of `key`: character i is
 * hash32(...key, i), computed from the key's hash once. Built from character codes in one
 * go, since a string grown a character at a time stays a chain of pieces in memory, and the
 * market keeps ten thousand of them.
 */
function draw(alphabet: string, length: number, key: number[]): string {
  let h = 0x811c9dc5;
  for (const p of key) h = mix(h, p);
  const codes = new Array<number>(length);
  for (let i = 0; i < length; i++) codes[i] = alphabet.charCodeAt((mix(h, i) >>> 0) % alphabet.length);
  return String.fromCharCode(...codes);
}

/** Lowercase EVM address (0x + 40 hex) derived from `key`. */
export function evmAddress(...key: number[]): string {
  return `0x${draw(HEX, 40, key)}`;
}

/** Solana-style base58 address (32–44 characters) derived from `key`. */
export function solanaAddress(...key: number[]): string {
  return draw(BASE58, 43 + (hash32(...key, -1) % 2), key);
}

/** Tron-style address: T + 33 base58 characters, derived from `key`. */
export function tronAddress(...key: number[]): string {
  return `T${draw(BASE58, 33, key)}`;
}

/** Transaction hash: 0x + 64 hex (EVM), 64 hex (Tron) or 88 base58 (Solana). */
export function txHash(family: "evm" | "solana" | "tron", ...key: number[]): string {
  if (family === "solana") return draw(BASE58, 88, key);
  const hex = draw(HEX, 64, key);
  return family === "evm" ? `0x${hex}` : hex;
}
