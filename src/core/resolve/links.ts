/**
 * Links people paste: DEX screeners, explorers and token pages, each read by the shape of its
 * path, with the site's chain names mapped to the service's.
 */
import { familiesOf, splitId } from "../../market/ids.js";
import { isAddress, malformedMessage } from "./addresses.js";
import { isChainWord, toServiceChain } from "./chains.js";
import type { TokenInput } from "./types.js";

/** An address found in a link, with the chain the site names, if any. */
interface LinkHit {
  address: string;
  chain?: string;
  isPair?: true;
}

type Reader = (segments: string[], url: URL) => LinkHit | undefined;

/** The segment after the first of `markers`, e.g. `token` in `/token/<addr>`. */
function after(segments: string[], markers: readonly string[]): string | undefined {
  const i = segments.findIndex((s) => markers.includes(s.toLowerCase()));
  return i < 0 ? undefined : segments[i + 1];
}

function explorer(chain: string): Reader {
  return (segments) => {
    const address = after(segments, ["token", "token20", "address", "account", "contract"]);
    return address === undefined ? undefined : { address, chain };
  };
}

/** By host; a Map, since the host comes from what someone pasted. */
const READERS: ReadonlyMap<string, Reader> = new Map(Object.entries({
  // dexscreener.com/<chain>/<pair or token>: the site takes both, so the address may be a pair.
  "dexscreener.com": ([chain, address]) =>
    chain !== undefined && address !== undefined ? { address, chain, isPair: true } : undefined,
  // dextools.io/app/<lang>/<chain>/pair-explorer/<pair>
  "dextools.io": (segments) => {
    const i = segments.indexOf("pair-explorer");
    const chain = segments[i - 1];
    const address = segments[i + 1];
    return i > 0 && chain !== undefined && address !== undefined ? { address, chain, isPair: true } : undefined;
  },
  // geckoterminal.com/<network>/pools/<pool> or /<network>/tokens/<token>
  "geckoterminal.com": ([chain, kind, address]) => {
    if (chain === undefined || address === undefined) return undefined;
    if (kind === "pools") return { address, chain, isPair: true };
    return kind === "tokens" ? { address, chain } : undefined;
  },
  // birdeye.so/token/<addr>?chain=<chain> (Solana when absent), or /<chain>/token/<addr>
  "birdeye.so": (segments, url) => {
    const address = after(segments, ["token"]);
    if (address === undefined) return undefined;
    const before = segments[0] !== "token" ? segments[0] : undefined;
    return { address, chain: url.searchParams.get("chain") ?? before ?? "solana" };
  },
  // gmgn.ai/<chain>/token/<addr>
  "gmgn.ai": ([chain, kind, address]) =>
    chain !== undefined && kind === "token" && address !== undefined ? { address, chain } : undefined,
  // pump.fun/<addr> or pump.fun/coin/<addr>: Solana only.
  "pump.fun": (segments) => {
    const address = segments[0] === "coin" ? segments[1] : segments[0];
    return address === undefined ? undefined : { address, chain: "solana" };
  },
  "etherscan.io": explorer("eth"),
  "bscscan.com": explorer("bsc"),
  "basescan.org": explorer("base"),
  "arbiscan.io": explorer("arbitrum"),
  "polygonscan.com": explorer("polygon"),
  "snowtrace.io": explorer("avalanche"),
  "snowscan.xyz": explorer("avalanche"),
  "optimistic.etherscan.io": explorer("optimism"),
  "blastscan.io": explorer("blast"),
  "solscan.io": explorer("solana"),
  "explorer.solana.com": explorer("solana"),
  // tronscan keeps its route in the fragment: tronscan.org/#/token20/<addr>
  "tronscan.org": explorer("tron"),
  "tronscan.io": explorer("tron"),
} satisfies Record<string, Reader>));

const WITH_SCHEME = /^https?:\/\//i;
// host.tld/path without a scheme, as people copy from the address bar.
const BARE_LINK = /^(?:www\.)?(?:[a-z0-9-]+\.)+[a-z]{2,}\/\S*$/i;

/** Whether `text` is a link (with a scheme, or a bare `host.tld/path`). */
export function isLink(text: string): boolean {
  return WITH_SCHEME.test(text) || BARE_LINK.test(text);
}

/**
 * Reads a pasted link. `undefined` when `text` is not a link; a `malformed` input when it is one
 * but holds no usable address.
 */
export function parseLink(text: string): TokenInput | undefined {
  if (!isLink(text)) return undefined;
  let url: URL;
  try {
    url = new URL(WITH_SCHEME.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const segments = [...url.pathname.split("/"), ...url.hash.replace(/^#/, "").split("/")]
    .filter((s) => s !== "")
    .map(decodeSegment);
  const reader = READERS.get(host);
  const hit = reader === undefined ? anyAddress(segments) : reader(segments, url);
  if (hit === undefined) {
    return { kind: "malformed", said: { key: "link-no-address" } };
  }
  return fromHit(hit);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Sites without a reader, such as the service's own token pages: an `<address>-<chain>` or an address in the path. */
function anyAddress(segments: string[]): LinkHit | undefined {
  for (const s of segments) {
    const id = splitId(s);
    if (id !== null && isAddress(id.address) && isChainWord(id.chain)) return { address: id.address, chain: id.chain };
  }
  const address = segments.find(isAddress);
  return address === undefined ? undefined : { address };
}

function fromHit(hit: LinkHit): TokenInput {
  const said = malformedMessage(hit.address) ?? (isAddress(hit.address) ? undefined : { key: "link-no-address" });
  if (said !== undefined) return { kind: "malformed", said };
  if (hit.chain === undefined) return { kind: "address", address: hit.address, families: familiesOf(hit.address) };
  const chain = toServiceChain(hit.chain);
  return hit.isPair ? { kind: "id", address: hit.address, chain, isPair: true } : { kind: "id", address: hit.address, chain };
}
