/**
 * What the cache keeps of an answer that is mostly fields no reply shows. A top-100 holder list
 * is ~77 KB of JSON with 30-odd figures per holder, of which /holders shows six of the first 25:
 * keeping those is the difference between a few hundred and many thousand lists within the
 * byte bound, and most of the cache's memory at 50,000 entries (benchmark 5).
 */
import type { Holder } from "../market/schemas.js";

/** Holders a reply can show: /holders lists at most 25 and sums the top 10's share. */
export const HOLDERS_KEPT = 25;

/** The first `HOLDERS_KEPT` holders with the fields a reply shows: who (address, alias, remark), share and value. */
export function slimHolders(list: readonly Holder[]): Holder[] {
  return list.slice(0, HOLDERS_KEPT).map(({ holder, address, addr_alias, remark, balance_ratio, balance_usd }) => {
    const kept: Holder = {};
    // An absent field stays absent: a key holding undefined still costs a slot in every entry.
    if (holder !== undefined && holder !== address) kept.holder = holder;
    if (address !== undefined) kept.address = address;
    if (addr_alias !== undefined) kept.addr_alias = addr_alias;
    if (remark !== undefined) kept.remark = remark;
    if (balance_ratio !== undefined) kept.balance_ratio = balance_ratio;
    if (balance_usd !== undefined) kept.balance_usd = balance_usd;
    return kept;
  });
}
