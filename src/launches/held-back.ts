/**
 * Which new tokens are never posted. Most new tokens are traps; one whose report says it cannot
 * be sold would only lure a reader into buying it, so it is held back rather than labelled.
 */
import { hasReport } from "../core/risk.js";
import type { RiskReport } from "../market/schemas.js";

/** A honeypot, or a report that says the sale is blocked (all of it, or taxed away). */
export function saleBlocked(r: RiskReport | undefined): boolean {
  if (r === undefined || !hasReport(r)) return false;
  return r.is_honeypot === 1 || r.cannot_sell_all === "1" || Number(r.sell_tax) >= 1;
}
