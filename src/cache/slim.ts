/**
 * What the cache keeps of an answer that is mostly fields no reply shows. A top-100 holder list
 * is ~77 KB of JSON with 30-odd figures per holder, of which /holders shows six: keeping those
 * is the difference between a few hundred and a few thousand lists within the byte bound.
 */
import type { Holder } from "../market/schemas.js";

/** The holder fields a reply shows: who (address, alias, remark), share and value. */
export function slimHolders(list: readonly Holder[]): Holder[] {
  return list.map(({ holder, address, addr_alias, remark, balance_ratio, balance_usd }) => ({
    holder,
    address,
    addr_alias,
    remark,
    balance_ratio,
    balance_usd,
  }));
}
