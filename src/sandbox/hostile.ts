/**
 * Tokens whose metadata is hostile to renderers: markup, mentions, control and bidi
 * characters, huge or odd decimals. Always served, whatever the seed, with the spec's types
 * (odd values, never odd types); "NaN"/"Infinity" appear only in quirks mode. Tests of the
 * renderers iterate this table.
 */
import { evmAddress, hashString, solanaAddress } from "./rng.js";

/** A record field name of the v2 token record (or v1 record) served with a fixed value. */
type FieldValues = Readonly<Record<string, string>>;

export interface HostileToken {
  /** `<address>-<chain>`, stable across seeds. */
  id: string;
  chain: string;
  address: string;
  symbol: string;
  name: string;
  /** What is hostile about it, in a few words. */
  hostility: string;
  /** Record fields served with these exact values instead of the market's own. */
  fields: FieldValues;
  /** Fields served with these values only in quirks mode (values that are not valid decimals). */
  quirkFields?: FieldValues;
  /** Project metadata served JSON-encoded in `appendix`. */
  appendix?: Readonly<Record<string, string>>;
  logoUrl?: string;
  /** Fixed price (USD) that never moves, so a value like 0.000000000000001234 is exact. */
  fixedPrice?: number;
  /** No pairs and no trades: every price field is empty. */
  noMarket?: boolean;
}

function evm(label: string): string {
  return evmAddress(hashString(`hostile:${label}`));
}
function sol(label: string): string {
  return solanaAddress(hashString(`hostile:${label}`));
}

const EMPTY_PRICES = {
  current_price_usd: "", current_price_eth: "", market_cap: "", fdv: "", tvl: "", main_pair_tvl: "",
  price_change_24h: "", price_change_1d: "", price_change_1h: "", tx_volume_u_24h: "", launch_price: "",
  price: "", price_change: "", high_24h: "", low_24h: "", volume_24h: "", amount_24h: "", turnover_24h: "",
};
const HUGE = "1e400";
const EIGHTY_DIGITS = "12345678901234567890123456789012345678901234567890123456789012345678901234567890";

const table: Omit<HostileToken, "id">[] = [
  {
    chain: "eth", address: evm("html"), symbol: "<b>HTML</b>",
    name: `<script>alert("x")</script><img src=x onerror=alert(1)> & <b>Bold</b> "Token"`,
    hostility: "HTML tags, a script element and entities in name and symbol", fields: {},
  },
  {
    chain: "bsc", address: evm("markdown"), symbol: "*MD*_`",
    name: "**Bold** _italic_ [click](https://evil.example/) `code` ~~strike~~ ||spoiler|| # Heading \\ > quote",
    hostility: "Markdown and MarkdownV2 syntax in name and symbol", fields: {},
  },
  {
    chain: "base", address: evm("mentions"), symbol: "@everyone",
    name: "@everyone @here <@&123> <@123456789012345678> <#987654321> ping",
    hostility: "@everyone, @here, role, user and channel mentions", fields: {},
  },
  {
    chain: "solana", address: sol("bidi"), symbol: "\u202eEPEP\u202c\u200b",
    name: "Safe\u202etxt.exe\u202c\u200b\u200c\u200d\ufeff Coin\u2066isolate\u2069",
    hostility: "right-to-left override, isolates and zero-width characters", fields: {},
  },
  {
    chain: "bsc", address: evm("control"), symbol: "CTRL\n",
    name: "New\nLine\r\nTab\tNul\u0000Bell\u0007Esc\u001b[31mRed",
    hostility: "newlines, tab, NUL, bell and an ANSI escape", fields: {},
  },
  {
    chain: "eth", address: evm("long"), symbol: "LONG",
    name: "Long".repeat(2500),
    hostility: "a 10,000-character name", fields: {},
  },
  {
    chain: "eth", address: evm("empty"), symbol: "", name: "",
    hostility: "empty name, symbol, logo, intro and appendix values", logoUrl: "",
    fields: { intro_en: "", lock_platform: "", risk_info: "" },
    appendix: { website: "", twitter: "", telegram: "", description: "", whitepaper: "" },
  },
  {
    chain: "base", address: evm("no-market"), symbol: "NOMKT", name: "No Market",
    hostility: "no pairs: every price, cap and change is an empty string", fields: EMPTY_PRICES, noMarket: true,
  },
  {
    chain: "bsc", address: evm("javascript"), symbol: "JSLINK", name: "Link Trap",
    hostility: "javascript: and data: URLs in appendix links and logo", logoUrl: "javascript:alert(1)", fields: {},
    appendix: {
      website: "javascript:alert(document.cookie)", twitter: "JaVaScRiPt:alert(1)",
      telegram: " javascript:void(0)", whitepaper: "data:text/html,<script>alert(1)</script>",
      blog: "https://ok.example/\u202e", email: "mailto:a@b.example?subject=<b>x</b>",
    },
  },
  {
    chain: "eth", address: evm("huge"), symbol: "HUGE", name: "Exponent Cap",
    hostility: `decimal "1e400" in total, market cap and fdv`,
    fields: { total: HUGE, market_cap: HUGE, fdv: HUGE, total_supply: HUGE, circulating_supply: HUGE },
  },
  {
    chain: "solana", address: sol("negzero"), symbol: "NEGZ", name: "Negative Zero",
    hostility: `decimal "-0" in every price change`, fixedPrice: 0.5,
    fields: {
      price_change_24h: "-0", price_change_1d: "-0", price_change_1h: "-0", token_price_change_5m: "-0",
      token_price_change_1h: "-0", token_price_change_4h: "-0", token_price_change_24h: "-0", price_change: "-0",
    },
  },
  {
    chain: "bsc", address: evm("eighty"), symbol: "DIGITS", name: "Eighty Digits",
    hostility: "80-digit integers in total supply and fdv",
    fields: { total: EIGHTY_DIGITS, fdv: EIGHTY_DIGITS, total_supply: EIGHTY_DIGITS, circulating_supply: EIGHTY_DIGITS },
  },
  {
    chain: "solana", address: sol("tiny"), symbol: "TINY", name: "Tiny Price",
    hostility: "price 0.000000000000001234 (16 zeros after the point)", fixedPrice: 0.000000000000001234, fields: {},
  },
  {
    chain: "base", address: evm("negcap"), symbol: "NEGCAP", name: "Negative Cap",
    hostility: "negative market cap and fdv", fields: { market_cap: "-4200000.5", fdv: "-1" },
  },
  {
    chain: "eth", address: evm("nan"), symbol: "NAN", name: "Not A Number",
    hostility: `"NaN" price and "Infinity" market cap (quirks mode only; normal values otherwise)`, fields: {},
    quirkFields: { current_price_usd: "NaN", price: "NaN", market_cap: "Infinity", fdv: "-Infinity" },
  },
];

/** The hostile tokens, one row each: id, symbol, name and what is hostile about it. */
export const HOSTILE_TOKENS: readonly HostileToken[] = table.map((t) => ({ ...t, id: `${t.address}-${t.chain}` }));
