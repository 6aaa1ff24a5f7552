/**
 * The full token records a list answer carries (search, rank list, main tokens, trending), up
 * to 300 a call: what the symbol index learns from, and what brings cached cards up to date.
 */
import type { MarketApi } from "../market/api.js";
import type { TokenV2 } from "../market/schemas.js";

export function recordsOf(method: keyof MarketApi, data: unknown): readonly TokenV2[] {
  if (method === "search" || method === "rankList" || method === "mainTokens") return Array.isArray(data) ? (data as TokenV2[]) : [];
  if (method === "trending") return (data as { tokens?: TokenV2[] } | undefined)?.tokens ?? [];
  return [];
}
