/**
 * What a person typed → a `TokenInput`, without asking the service: `<address>-<chain>`,
 * `<address> <chain>`, an address alone, a pasted link, or a symbol or name.
 */
import { familiesOf, normalizeAddress, splitId } from "../../market/ids.js";
import { isAddress, looksLikeAddress, malformedMessage } from "./addresses.js";
import { isChainWord, knownChain, toServiceChain } from "./chains.js";
import { isLink, parseLink } from "./links.js";
import type { TokenInput } from "./types.js";
import type { LocalMessage } from "../../i18n/index.js";
import { stripInvisible } from "../format/clean.js";

/** Longer input is not a token, a link to one, or anything worth searching for. */
const MAX_INPUT_LENGTH = 512;
/** Longer queries are not a symbol or name. */
const MAX_QUERY_LENGTH = 64;
/** `findAddresses` returns at most this many. */
const MAX_FOUND = 3;
/** `findAddresses` reads at most this much of a message. */
const MAX_SCAN_LENGTH = 4096;

// Quotes, brackets and code marks people put around an address in chat.
const WRAPPERS = /^[\s"'`<([{]+|[\s"'`>)\]}]+$/g;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/**
 * `s` without the zero-width and other invisible characters that ride along when an address is
 * copied from a web page (the one list, format/clean.ts); line breaks and tabs stay as word breaks.
 */
function visible(s: string): string {
  return lowerHexPrefix(stripInvisible(s, { keepLines: true }));
}

/**
 * `0X…` as `0x…`: some wallets and spreadsheets print the prefix upper case, and the rest of the
 * reading (and the service) knows only `0x`; a word merely starting with `0X` is left alone.
 */
function lowerHexPrefix(s: string): string {
  return s.replace(/(?<![0-9A-Za-z])0X(?=[0-9a-fA-F]{2})/g, "0x");
}

/**
 * `s` without the quotes and brackets around it, unless a bracket is left inside: `<b>x</b>` is
 * markup typed as a name, searched and echoed as typed, not `b>x</b`.
 */
function unwrapped(s: string): string {
  const inner = s.replace(WRAPPERS, "");
  return /[<>()[\]{}]/.test(inner) ? s.trim() : inner;
}

function malformed(said: LocalMessage): TokenInput {
  return { kind: "malformed", said };
}

/** An address with a chain word: malformed when the address is almost one. */
function idOf(address: string, chain: string): TokenInput {
  const said = malformedMessage(address);
  return said === undefined ? { kind: "id", address, chain: toServiceChain(chain) } : malformed(said);
}

function addressOf(word: string): TokenInput | undefined {
  if (isAddress(word)) return { kind: "address", address: word, families: familiesOf(word) };
  const said = malformedMessage(word);
  return said === undefined ? undefined : malformed(said);
}

/** One word: `<address>-<chain>`, a link, or an address; `undefined` when it is none of these. */
function parseWord(word: string): TokenInput | undefined {
  if (isLink(word)) return parseLink(word);
  const id = splitId(word);
  if (id !== null && looksLikeAddress(id.address) && isChainWord(id.chain)) return idOf(id.address, id.chain);
  return addressOf(word);
}

/**
 * Reads what was typed after a token command (or pasted): `0x…-bsc`, `0x… bsc`, `bsc 0x…`, an
 * address alone, a DEX screener or explorer link, or a symbol/name (`$PEPE`, `pepe bsc`).
 * Almost-addresses (39 hex digits, base58 with a `0`) come back `malformed` with the reason.
 */
export function parseTokenInput(text: string): TokenInput {
  // NFKC first: fullwidth `Ｐｅｐｅ` from an Asian keyboard is `Pepe`, and an address's digits are ASCII.
  const t = unwrapped(visible(text.normalize("NFKC")));
  if (t === "") return malformed({ key: "resolve-empty" });
  if (t.length > MAX_INPUT_LENGTH) return malformed({ key: "parse-too-long" });
  const words = t.split(/\s+/);
  const [first, second] = words;
  if (words.length === 1 && first !== undefined) {
    const one = parseWord(first);
    if (one !== undefined) return one;
  }
  if (words.length === 2 && first !== undefined && second !== undefined) {
    if (looksLikeAddress(first) && isChainWord(second)) return idOf(first, second);
    if (looksLikeAddress(second) && isChainWord(first)) return idOf(second, first);
  }
  if (words.length > 1 && words.some((w) => looksLikeAddress(w) || isLink(w))) {
    const found = findAddresses(t);
    if (found.length === 1 && found[0] !== undefined) return found[0];
    return malformed({ key: "parse-one-token" });
  }
  return parseQuery(words);
}

/** A symbol or name; a trailing known chain name filters (`pepe bsc`); a leading `$` is a cashtag. */
function parseQuery(words: string[]): TokenInput {
  const last = words[words.length - 1];
  const chain = words.length > 1 && last !== undefined ? knownChain(last) : undefined;
  const text = (chain === undefined ? words : words.slice(0, -1)).join(" ").replace(/^\$(?=\S)/, "");
  if (text.length > MAX_QUERY_LENGTH) return malformed({ key: "parse-query-too-long" });
  return chain === undefined ? { kind: "query", text } : { kind: "query", text, chain };
}

/**
 * Addresses and token links inside free text (a message that pastes a contract among other
 * words), for auto-detection: valid ones only (never `malformed` or `query`), an address
 * followed by a chain name (`0x… on bsc`) taken with it, duplicates removed, at most 3.
 */
export function findAddresses(text: string): TokenInput[] {
  const words = visible(text.slice(0, MAX_SCAN_LENGTH).normalize("NFKC"))
    .split(/[\s,;]+/)
    .map((w) => w.replace(WRAPPERS, "").replace(TRAILING_PUNCTUATION, ""))
    .filter((w) => w !== "");
  const found: TokenInput[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < words.length && found.length < MAX_FOUND; i++) {
    const word = words[i] as string;
    let input = parseWord(word);
    if (input?.kind === "address") input = withFollowingChain(input, words[i + 1], words[i + 2]);
    if (input === undefined || (input.kind !== "id" && input.kind !== "address")) continue;
    const key =
      input.kind === "id"
        ? `${normalizeAddress(input.address, input.chain)}-${input.chain}`
        : input.families.includes("evm") ? input.address.toLowerCase() : input.address;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(input);
  }
  return found;
}

/** `0x… bsc` or `0x… on bsc` in running text: only known chain names count there. */
function withFollowingChain(
  input: Extract<TokenInput, { kind: "address" }>,
  next: string | undefined,
  afterNext: string | undefined,
): TokenInput {
  const word = next?.toLowerCase() === "on" ? afterNext : next;
  const chain = word === undefined ? undefined : knownChain(word);
  return chain === undefined ? input : { kind: "id", address: input.address, chain };
}
