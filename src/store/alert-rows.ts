/** Alerts and their firings as both engines read their rows (the tables: migration 3). */
import type { Alert, AlertFiring, FiringState, Platform } from "./types.js";

/** Alert firings as rows of the send protocol. */
export const FIRING_SEND_TABLE = { table: "alert_firings", key: ["id"] } as const;

export interface AlertRow {
  id: number;
  platform: string;
  chat_id: string;
  number: number;
  token_id: string;
  symbol: string;
  chain: string;
  rule: string;
  level: string;
  anchor_price: string;
  anchor_at: number;
  armed: number;
  paused_at: number | null;
  last_fired_at: number | null;
  created_at: number;
}

export function toAlert(r: AlertRow): Alert {
  return {
    id: r.id,
    platform: r.platform as Platform,
    chatId: r.chat_id,
    number: r.number,
    tokenId: r.token_id,
    symbol: r.symbol,
    chain: r.chain,
    rule: r.rule as Alert["rule"],
    level: r.level,
    anchorPrice: r.anchor_price,
    anchorAt: r.anchor_at,
    armed: r.armed === 1,
    ...(r.paused_at === null ? {} : { pausedAt: r.paused_at }),
    ...(r.last_fired_at === null ? {} : { lastFiredAt: r.last_fired_at }),
    createdAt: r.created_at,
  };
}

export interface FiringRow {
  id: number;
  alert_id: number;
  platform: string;
  chat_id: string;
  kind: string;
  payload: string;
  state: string;
  fired_at: number;
}

export function toFiring(r: FiringRow): AlertFiring {
  return {
    id: r.id,
    alertId: r.alert_id,
    platform: r.platform as Platform,
    chatId: r.chat_id,
    kind: r.kind as AlertFiring["kind"],
    payload: r.payload,
    state: r.state as FiringState,
    firedAt: r.fired_at,
  };
}
