/** Every command through the console adapter against the sandbox, checked against the sandbox's own market. */
import { describe, expect, it } from "vitest";
import { pairLiquidity } from "../../src/core/commands/token.js";
import { formatCount, formatPercent, formatPrice, formatSince, formatUsd, shortAddress } from "../../src/core/format/index.js";
import { messages } from "../../src/i18n/index.js";
import type { SandboxToken } from "../../src/sandbox/index.js";
import { CONSOLE_CHAT } from "../../src/adapters/console/run.js";
import { sandboxPerFile, T0 } from "./sandbox-world.js";

const the = sandboxPerFile();
const nowS = Math.floor(T0 / 1000);

function token(symbol: string, chain?: string): SandboxToken {
  const t = the.world.sandbox.market.bySymbol(symbol).find((x) => chain === undefined || x.chain === chain);
  if (t === undefined) throw new Error(`no ${symbol} in the sandbox`);
  return t;
}
function byRisk(risk: SandboxToken["risk"]): SandboxToken {
  const t = the.world.sandbox.market.tokens.find((x) => x.risk === risk && x.launchAt * 1000 < T0 && x.pairs.length > 0);
  if (t === undefined) throw new Error(`no ${risk} token`);
  return t;
}
const priceOf = (t: SandboxToken) => formatPrice(the.world.sandbox.market.snapshot(t, nowS).price);

describe("/price", () => {
  it("answers a famous symbol with the original contract's price and lists the others in the text", async () => {
    const pepes = the.world.sandbox.market.bySymbol("pepe");
    const real = pepes.find((p) => p.id === "0x6982508145454ce325ddbe47a25d4ec3d2311933-eth") as SandboxToken;
    const out = await the.bot.say("/price pepe");
    expect(out).toContain(`PEPE ${priceOf(real)}`);
    expect(out).toContain(`${pepes.length} tokens are called PEPE; this is the original contract, on eth. Others: PEPE on `);
    const clone = pepes.find((p) => p.chain === "bsc" && p.id !== real.id) as SandboxToken;
    expect(out).toContain(`PEPE on bsc (${clone.address.slice(0, 6)}…${clone.address.slice(-4)}, liquidity `);
    expect(out).toContain("demo data (sandbox) · as of 12:00 UTC (just now)");
  });

  it("answers a long-tail symbol with the most liquid one and says so", async () => {
    const bretts = [...the.world.sandbox.market.bySymbol("brett")].sort((a, b) => b.liquidity - a.liquidity);
    const out = await the.bot.say("/price brett");
    expect(out).toContain(`${bretts.length} tokens are called BRETT; this is the most liquid one, on ${(bretts[0] as SandboxToken).chain}. Others: BRETT on `);
  });

  it("prices 20 tokens with one batch call", async () => {
    const tokens = the.world.sandbox.market.tokens.filter((t) => t.launchAt * 1000 < T0 && t.pairs.length > 0).slice(0, 20);
    const out = await the.bot.say(`/price ${tokens.map((t) => t.id).join(" ")}`);
    for (const t of tokens) expect(out).toContain(priceOf(t));
    expect(the.world.sandbox.stats().byEndpoint["batchPrices"]).toBe(1);
  });

  it("refuses 21 tokens with a sentence and asks the service nothing", async () => {
    const out = await the.bot.say(`/price ${Array.from({ length: 21 }, (_, i) => `t${i}`).join(" ")}`);
    expect(out.trim()).toBe("⚠ I price at most 20 tokens at once; you asked for 21.");
    expect(the.world.sandbox.stats().total).toBe(0);
  });

  it("reads each word as one token without commas, so /price btc eth sol shows three rows", async () => {
    const reply = await the.bot.core.handleText(CONSOLE_CHAT, "/price btc eth sol");
    const table = reply?.blocks.find((b) => b.kind === "table");
    expect(reply?.title).toBe("Prices (3)");
    expect(table?.kind === "table" ? table.rows : []).toHaveLength(3);
  });

  it("reads each comma-separated segment as one token that may name its chain", async () => {
    const reply = await the.bot.core.handleText(CONSOLE_CHAT, "/price pepe bsc, wif");
    const table = reply?.blocks.find((b) => b.kind === "table");
    const rows = table?.kind === "table" ? table.rows : [];
    expect(rows.map((r) => [r[0], r[1]])).toEqual([["PEPE", "bsc"], ["WIF", token("wif").chain]]);
  });

  it("reads a chain typed after a token without a comma as that token's chain when no token is called so, and after an address always", async () => {
    const rowsOf = async (text: string) => {
      const reply = await the.bot.core.handleText(CONSOLE_CHAT, text);
      const table = reply?.blocks.find((b) => b.kind === "table");
      return { rows: (table?.kind === "table" ? table.rows : []).map((r) => [r[0], r[1]]), text: JSON.stringify(reply?.blocks) };
    };
    const usdt = await rowsOf("/price usdt bsc wif");
    expect(usdt.rows).toEqual([["USDT", "bsc"], ["WIF", token("wif").chain]]);
    expect(usdt.text).not.toContain("No token matches");
    // eth is a token too: after a symbol it stays one; after an address it can only be its chain.
    expect((await rowsOf("/price btc eth")).rows).toHaveLength(2);
    expect((await rowsOf("/price 0x6982508145454ce325ddbe47a25d4ec3d2311933 eth")).rows).toEqual([["PEPE", "eth"]]);
  });

  it("names the tokens it could not find and prices the rest", async () => {
    const out = await the.bot.say("/price wif, zzqqxx");
    expect(out).toContain(priceOf(token("wif")));
    expect(out).toMatch(/zzqqxx: .*zzqqxx/);
  });
});

describe("/token", () => {
  it("refreshes a card of a symbol several tokens share as typed, so its note and their buttons stay", async () => {
    const refreshOf = (r: Awaited<ReturnType<typeof the.bot.core.handleText>>) =>
      r?.actions.flat().find((a) => a.kind === "command" && a.label.includes("Refresh"));
    const card = await the.bot.core.handleText(CONSOLE_CHAT, "/token pepe");
    expect(refreshOf(card)).toMatchObject({ command: "token", args: ["pepe"] });
    const chart = await the.bot.core.handleText(CONSOLE_CHAT, "/chart pepe 1h");
    expect(refreshOf(chart)).toMatchObject({ command: "chart", args: ["pepe", "1h"] });
    // Typed by its id, a token is refreshed by it: nothing else was meant.
    const byId = await the.bot.core.handleText(CONSOLE_CHAT, "/token 0x6982508145454ce325ddbe47a25d4ec3d2311933-eth");
    expect(refreshOf(byId)).toMatchObject({ command: "token", args: ["0x6982508145454ce325ddbe47a25d4ec3d2311933-eth"] });
  });

  it("shows the card of an id with the sandbox's name, address, price and holders", async () => {
    const t = token("pepe");
    const out = await the.bot.say(`/token ${t.id}`);
    expect(out).toContain(`${t.name} (${t.symbol}) · ${t.chain}`);
    expect(out).toContain(t.address);
    expect(out).toContain(priceOf(t));
    expect(out).toContain(formatCount(t.holders));
    expect(out).toContain("🟢 No red flags in the contract report");
  });

  it("shows every figure of the sandbox's own detail record for PEPE, its top pairs and its links", async () => {
    const t = token("pepe");
    const detail = await the.bot.client.tokenDetail(t.id);
    const d = detail.token;
    const reply = await the.bot.core.handleText(CONSOLE_CHAT, `/token ${t.id}`);
    const fields = Object.fromEntries((reply?.blocks ?? []).flatMap((b) => (b.kind === "fields" ? b.fields : [])).map((f) => [f.label, f.value]));
    const pct = (v: string | undefined) => formatPercent(v, { arrow: false });
    expect(fields).toMatchObject({
      "Market cap": formatUsd(d.market_cap),
      FDV: formatUsd(d.fdv),
      TVL: formatUsd(d.tvl ?? d.main_pair_tvl),
      "Change 5m / 1h / 4h / 24h": [d.token_price_change_5m, d.token_price_change_1h, d.token_price_change_4h, d.token_price_change_24h].map(pct).join(" / "),
      "Buys / sells 24h": `${formatCount(d.buy_tx)} / ${formatCount(d.sell_tx)}`,
      Age: formatSince(d.launch_at ?? d.created_at, T0, { i18n: messages().translator("en") }),
    });
    for (const v of [d.market_cap, d.fdv, d.buy_tx, d.token_price_change_5m, d.token_price_change_4h]) expect(v).toBeDefined();
    const main = detail.pairs.find((p) => p.pair === d.main_pair);
    expect(main).toBeDefined();
    expect(fields["Main pair"]).toBe(`${main?.token0_symbol}/${main?.token1_symbol} on ${main?.amm} (${shortAddress(main?.pair)})`);
    const table = reply?.blocks.find((b) => b.kind === "table");
    const expectedPairs = detail.pairs.filter((p) => p.is_fake !== true).slice(0, 3);
    expect(expectedPairs.length).toBeGreaterThan(0);
    expect(table?.kind === "table" ? table.rows : []).toEqual(
      expectedPairs.map((p) => [`${p.token0_symbol}/${p.token1_symbol}`, p.amm, formatUsd(pairLiquidity(p)), formatUsd(p.volume_u)]),
    );
    const links = (reply?.actions ?? []).flat().filter((a) => a.kind === "url");
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.kind === "url" ? link.url : "").toMatch(/^https:\/\//);
  });

  it("answers /detail like /token", async () => {
    const t = token("wif");
    expect(await the.bot.say(`/detail ${t.id}`)).toBe(await the.bot.say(`/token ${t.id}`));
  });

  it("offers the other tokens of a colliding symbol as buttons that open their cards", async () => {
    const pepes = the.world.sandbox.market.bySymbol("pepe");
    const [, button, chain] = /\[(\d+)\] PEPE · (\w+) · /.exec(await the.bot.say("/token pepe")) ?? [];
    if (button === undefined || chain === undefined) throw new Error("no other PEPE offered");
    const out = await the.bot.say(["/token pepe", button]);
    const opened = out.slice(out.lastIndexOf("Pepe (PEPE) · "));
    expect(opened.startsWith(`Pepe (PEPE) · ${chain}`)).toBe(true);
    expect(pepes.some((p) => p.chain === chain && opened.includes(p.address))).toBe(true);
  });

  it("offers only tokens of the typed symbol as alternatives, never names that merely contain it", async () => {
    const reply = await the.bot.core.handleText(CONSOLE_CHAT, "/token pepe bsc");
    const alternatives = (reply?.actions ?? []).flat().filter((a) => a.label.includes(" · "));
    expect(alternatives.length).toBe(the.world.sandbox.market.bySymbol("pepe").filter((x) => x.chain === "bsc").length - 1);
    expect(alternatives.length).toBeGreaterThan(0);
    for (const a of alternatives) expect(a.label).toMatch(/^PEPE · /);
  });
});

describe("resolving what people type", () => {
  const t = () => token("pepe", "bsc");

  it.each([
    ["an id", (x: SandboxToken) => x.id],
    ["an address and a chain word", (x: SandboxToken) => `${x.address} ${x.chain}`],
    ["an address in upper case", (x: SandboxToken) => `0x${x.address.slice(2).toUpperCase()}-${x.chain}`],
    ["a DEX screener link", (x: SandboxToken) => `https://dexscreener.com/${x.chain}/${x.address}`],
  ])("finds the token from %s", async (_label, typed) => {
    const out = await the.bot.say(`/token ${typed(t())}`);
    expect(out).toContain(`${t().name} (${t().symbol}) · ${t().chain}`);
    expect(out).toContain(t().address);
  });

  it("takes the most liquid chain for an address alone and offers the others", async () => {
    const everywhere = the.world.sandbox.market.tokensAt(t().address);
    const best = [...everywhere].sort((a, b) => b.liquidity - a.liquidity)[0] as SandboxToken;
    const out = await the.bot.say(`/token ${t().address}`);
    expect(out).toContain(`${best.name} (${best.symbol}) · ${best.chain}`);
    expect(everywhere.length).toBeGreaterThan(1);
    expect(out).toContain(`This address is a token on ${everywhere.length} chains; this is the most liquid one, on ${best.chain}. Others: PEPE on `);
    expect(out).toMatch(/Others: .*PEPE on bsc \(0x6982…1933, liquidity \$/);
    expect(out).not.toContain("tokens are called");
    expect(out).toMatch(/\[\d+\] PEPE · bsc/);
  });

  it("answers a malformed address with one sentence naming the problem", async () => {
    const out = await the.bot.say(`/token 0x${"g".repeat(40)}`);
    expect(out.trim()).toMatch(/^⚠ .*hex/);
  });

  it("answers an address on the wrong chain family with one sentence", async () => {
    const out = await the.bot.say(`/token ${t().address}-solana`);
    expect(out.trim()).toMatch(/^⚠ .*not a Solana address/);
  });

  it("answers an unknown symbol with one line naming it", async () => {
    expect((await the.bot.say("/token qqqzzznothing")).trim()).toMatch(/^⚠ .*qqqzzznothing/);
  });

  it("claims no price change for a token without a price", async () => {
    const noMarket = the.world.sandbox.market.bySymbol("NOMKT")[0] as SandboxToken;
    const out = await the.bot.say(`/token ${noMarket.id}`);
    expect(out).toMatch(/Change 5m \/ 1h \/ 4h \/ 24h\s+— \/ — \/ — \/ —/);
    expect(out).not.toContain("0.00%");
  });

  it("shows the card of a pasted address without a command", async () => {
    const out = await the.bot.say(`look at this ${t().address}-${t().chain} wow`);
    expect(out).toContain(`${t().name} (${t().symbol}) · ${t().chain}`);
  });
});

describe("/risk", () => {
  it.each([
    ["clean", "🟢 No red flags in the contract report"],
    ["honeypot", "🔴 High risk: honeypot"],
    ["highTax", "🔴 High risk:"],
    ["concentrated", "🔴 High risk:"],
    ["lpUnlocked", "🔴 High risk:"],
    ["mintable", "🟡 Caution: mintable"],
    ["proxy", "🟡 Caution:"],
    ["ownerNotRenounced", "🟡 Caution: owner not renounced"],
    ["unchecked", "🟡 Caution: honeypot not checked"],
    ["noReport", "⚪ No risk data — this is not a clean bill"],
  ] as const)("gives a %s token the verdict %s", async (risk, verdict) => {
    const out = await the.bot.say(`/risk ${byRisk(risk).id}`);
    expect(out).toContain(verdict);
    expect(out.toLowerCase()).not.toContain("safe");
  });

  it("lists the findings with the sandbox's taxes", async () => {
    const out = await the.bot.say(`/risk ${byRisk("highTax").id}`);
    expect(out).toMatch(/Buy \/ sell tax\s+⚠ 12\.0% \/ ⚠ 25\.0%/);
    expect(out).toMatch(/Owner\s+⚠ /);
  });

  it("says not checked for is_honeypot -1, never no", async () => {
    expect(await the.bot.say(`/risk ${byRisk("unchecked").id}`)).toMatch(/Honeypot\s+not checked/);
  });
});

describe("/holders", () => {
  it("lists top holders and warns when the top 10 own more than half", async () => {
    const out = await the.bot.say(`/holders ${byRisk("concentrated").id}`);
    expect(out).toMatch(/⚠ The top 10 holders own \d+\.\d% of the supply/);
    expect(out.split("\n").filter((l) => /^\s*\d+\s+\S+…/.test(l))).toHaveLength(10);
  });

  it("reads a broad token's concentration without a warning", async () => {
    const out = await the.bot.say(`/holders ${token("pepe").id} 5`);
    expect(out).toMatch(/^The top 10 holders own \d+\.\d% of the supply\.$/m);
    expect(out).not.toContain("⚠ The top 10");
  });

  it("refuses n out of bounds", async () => {
    expect((await the.bot.say(`/holders ${token("pepe").id} 500`)).trim()).toBe("⚠ n must be between 1 and 25.");
  });
});

describe("lists", () => {
  it("pages /trending with buttons that replace the message", async () => {
    const first = await the.bot.client.trending({ chain: "solana", page: 0, pageSize: 10 });
    const second = await the.bot.client.trending({ chain: "solana", page: 1, pageSize: 10 });
    const out = await the.bot.say(["/trending solana", "11"]);
    expect(out).toContain("Trending on solana · page 1 of");
    expect(out).toContain(`1. ${first.tokens[0]?.symbol}`);
    expect(out).toContain("Trending on solana · page 2 of");
    expect(out).toContain(`11. ${second.tokens[0]?.symbol}`);
    const page = await the.bot.core.run({ ...(await import("../../src/adapters/console/run.js")).CONSOLE_CHAT }, "trending", ["solana", "1"]);
    expect(page?.actions.flat().find((a) => a.label === "Next ▶")).toMatchObject({ kind: "command", args: ["solana", "2"], edit: true });
  });

  it("uses the chat's default chain for /trending", async () => {
    const out = await the.bot.say(["/settings chain bsc", "/trending"]);
    expect(out).toContain("Saved: default chain bsc");
    expect(out).toContain("Trending on bsc · page 1");
  });

  it("shows /top, /topics, /chains and /main from the service", async () => {
    const top = await the.bot.client.rankList({ topic: "meme", limit: 15 });
    const out = await the.bot.say(["/top meme", "/topics", "/chains", "/main eth"]);
    expect(out).toContain("Top: meme");
    for (const t of top.slice(0, 5)) expect(out).toContain(String(t.symbol));
    expect(out).toContain("Ranked lists (20)");
    expect(out).toContain(`Supported chains (${the.world.sandbox.market.chains.length})`);
    for (const c of the.world.sandbox.market.chains) expect(out).toContain(c.name);
    for (const m of the.world.sandbox.market.mainTokens("eth").slice(0, 5)) expect(out).toContain(m.symbol);
  });

  it("searches by liquidity on one chain, with buttons that open cards", async () => {
    const out = await the.bot.say(["/search pepe bsc", "1"]);
    const rows = out.split("\n").filter((l) => /^\s*\d+\s+\S+\s+bsc\s/.test(l));
    expect(rows.length).toBeGreaterThan(1);
    expect(out).toMatch(/· bsc\n/);
  });
});

describe("/swaps and v1 extras", () => {
  it("shows the latest swaps of a token's main pair", async () => {
    const out = await the.bot.say(`/swaps ${token("pepe").id}`);
    expect(out).toContain(`Latest swaps: PEPE · eth`);
    expect(out).toMatch(/(🟢 buy|🔴 sell)/);
  });

  it("marks buys and sells with their prices for a pair typed as <pair>-<chain>", async () => {
    const t = token("pepe");
    const pair = t.pairs[0];
    if (pair === undefined) throw new Error("pepe has no pair");
    const reply = await the.bot.core.handleText(CONSOLE_CHAT, `/swaps ${pair.address}-${t.chain}`);
    const table = reply?.blocks.find((b) => b.kind === "table");
    const rows = table?.kind === "table" ? table.rows : [];
    expect(reply?.title).toMatch(/^Latest swaps: pair 0x/);
    expect(rows.length).toBeGreaterThan(0);
    for (const [, side, , price] of rows) {
      expect(side).toMatch(/^(🟢 buy|🔴 sell)$/);
      expect(price).toMatch(/^\$\d/);
    }
  });

  it("lists a token's pairs, a pair's liquidity events, an AMM's pairs and a contract check", async () => {
    const t = token("pepe");
    const pair = t.pairs[0];
    if (pair === undefined) throw new Error("pepe has no pair");
    const out = await the.bot.say([`/pairs ${t.id}`, `/liquidity ${pair.address}`, `/amm ${pair.amm} eth`, `/check eth ${t.address}`]);
    expect(out).toContain(`Pairs: PEPE · eth`);
    expect(out).toContain(`${pair.address.slice(0, 6)}…`);
    expect(out).toMatch(/Liquidity: 0x.{4}…/);
    expect(out).toMatch(/(add|remove)/);
    expect(out).toContain(`${pair.amm} on eth: busiest pairs`);
    expect(out).toContain("Contract check:");
    expect(out).toContain("🟢 No red flags in the contract report");
  });

  it("answers a DEX the service does not know by naming the DEX, not a token", async () => {
    const out = await the.bot.say("/amm pancakeswapv9 bsc");
    expect(out).toContain('The service knows no DEX "pancakeswapv9" on bsc');
  });
});

describe("the data's age in the footer", () => {
  const SOURCE = "demo data (sandbox)";

  it("dates /trending, a digest, /main, /search on a chain and /amm by the list shown, not by the chain list that named the chain", async () => {
    await the.bot.market.supportedChains();
    // 38 minutes on, the chain list is still fresh in the cache; every list is fetched now.
    the.world.clock.advance(38 * 60_000);
    const fresh = { source: SOURCE, asOf: the.world.clock.now(), stale: false };
    const digest = await the.bot.core.post({ platform: "telegram", chatId: "-1001" }, "trending", ["eth", "1", "5"]);
    expect(digest.footer).toEqual(fresh);
    for (const text of ["/trending eth", "/main eth", "/search pepe bsc", `/amm ${token("pepe").pairs[0]?.amm} eth`]) {
      const reply = await the.bot.core.handleText(CONSOLE_CHAT, text);
      expect({ text, footer: reply?.footer }).toEqual({ text, footer: fresh });
    }
  });

  it("dates /swaps by the swaps, not by the token detail that picked the pair", async () => {
    const id = token("pepe").id;
    await the.bot.market.tokenDetail(id);
    the.world.clock.advance(30_000);
    const reply = await the.bot.core.handleText(CONSOLE_CHAT, `/swaps ${id}`);
    expect(reply?.footer).toEqual({ source: SOURCE, asOf: the.world.clock.now(), stale: false });
  });

  it("still says stale when the list shown or the chain list was served from older data", async () => {
    await the.bot.market.supportedChains();
    await the.bot.market.trending({ chain: "eth", page: 0, pageSize: 10 });
    the.world.clock.advance(3 * 60_000);
    the.world.sandbox.setFaults([{ kind: "http5xx", endpoints: ["trending"] }]);
    const olderList = await the.bot.core.handleText(CONSOLE_CHAT, "/trending eth");
    expect(olderList?.footer).toEqual({ source: SOURCE, asOf: T0, stale: true });

    // Past the chain list's freshness and grace, the service fails it but answers the list.
    the.world.clock.advance(13 * 3_600_000);
    the.world.sandbox.setFaults([{ kind: "http5xx", endpoints: ["supportedChains"] }]);
    const olderChains = await the.bot.core.handleText(CONSOLE_CHAT, "/trending eth");
    expect(olderChains?.footer).toEqual({ source: SOURCE, asOf: the.world.clock.now(), stale: true });
  });
});

describe("/help, /start and /settings", () => {
  it("lists every command and explains one", async () => {
    const out = await the.bot.say(["/help", "/help risk", "/start"]);
    for (const c of the.bot.core.commands) expect(out).toContain(`/${c.name}`);
    expect(out).toContain("Examples: /risk pepe");
    expect(out).toContain("Hi, I'm chainpulse");
  });

  it("lets the console user change settings and refuses a non-admin", async () => {
    expect(await the.bot.say(["/settings timezone Europe/Berlin", "/settings"])).toMatch(/Time zone\s+Europe\/Berlin/);
    const member = { platform: "telegram" as const, chatId: "g", userId: "u", isPrivate: false, isAdmin: async () => false };
    expect((await the.bot.say("/settings chain bsc", member)).trim()).toBe("⚠ Only this chat's admins can change its settings.");
  });

  it("tells a group that admins change its settings, and a private chat that its person does", async () => {
    const group = { platform: "telegram" as const, chatId: "g2", userId: "u", isPrivate: false, isAdmin: async () => false };
    const own = { platform: "telegram" as const, chatId: "u", userId: "u", isPrivate: true, isAdmin: async () => true };
    const theirs = await the.bot.say("/settings", group);
    expect(theirs).toContain("Admins change them with /settings chain");
    // Every setting the group shows is one it is told how to change.
    expect(theirs).toContain("/settings calls on|off");
    const mine = await the.bot.say("/settings", own);
    expect(mine).toContain("Change them with /settings chain");
    expect(mine).toMatch(/Auto-detect pasted addresses\s+on \(the default in private chats\)/);
    expect(mine).not.toContain("Admins");
  });
});
