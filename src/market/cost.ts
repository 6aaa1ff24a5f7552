/**
 * What one call costs in compute units (service-notes.md: K-line documented, the rest as
 * reported). Endpoints the notes give no figure for count 1, so the ledger never under-counts
 * them as free.
 */
import { COMPUTE_UNITS } from "./limits.js";

const UNLISTED_UNITS = 1;

/** Units of one HTTP call to `endpoint` (a batch-price chunk costs the same whatever its size). */
export function unitsOf(endpoint: string): number {
  return Object.hasOwn(COMPUTE_UNITS, endpoint) ? (COMPUTE_UNITS[endpoint] as number) : UNLISTED_UNITS;
}
