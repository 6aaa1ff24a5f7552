/**
 * How calls read a price the service wrote: the market's strict decimal reading, as a number.
 * A value that is not the spec's decimal form or not a price (garbage, "NaN", a negative,
 * zero, 1e-300) is never taken into a call's price, high or multiple.
 */
import { PRICE_RANGE, readDecimal } from "../market/decimal.js";

/** `text` as a price, or undefined when it is not one. */
export function readPrice(text: string | undefined): number | undefined {
  return readDecimal(text, PRICE_RANGE);
}
