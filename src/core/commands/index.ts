/**
 * The registry: every command, in the order `/help` lists them. An explicit list (no folder
 * scan) so that Telegram's command menu, Discord's slash commands and `/help` derive from one
 * typed source.
 */
import { DEFAULT_ALERT_LIMITS, type AlertLimits } from "../alerts/limits.js";
import type { Command } from "../command.js";
import { alertCommand, rearmCommand } from "./alert.js";
import { alertsCommand, unalertCommand } from "./alerts.js";
import { ammCommand } from "./amm.js";
import { autodetectCommand } from "./autodetect.js";
import { callsCommand } from "./calls.js";
import { chainsCommand } from "./chains.js";
import { chartCommand } from "./chart.js";
import { checkCommand } from "./check.js";
import { convertCommand } from "./convert.js";
import { createHelpCommand } from "./help.js";
import { holdersCommand } from "./holders.js";
import { lbCommand } from "./lb.js";
import { liquidityCommand } from "./liquidity.js";
import { mainCommand } from "./main.js";
import { pairsCommand } from "./pairs.js";
import { pnlCommand } from "./pnl.js";
import { priceCommand } from "./price.js";
import { riskCommand } from "./risk.js";
import { searchCommand } from "./search.js";
import { settingsCommand } from "./settings.js";
import { startCommand } from "./start.js";
import { swapsCommand } from "./swaps.js";
import { tokenCommand } from "./token.js";
import { topCommand } from "./top.js";
import { topicsCommand } from "./topics.js";
import { trendingCommand } from "./trending.js";
import { unwatchCommand, watchCommand, watchlistCommand } from "./watch.js";

/** The market and settings commands, in `/help` order. */
const BASE: readonly Command[] = [
  priceCommand,
  convertCommand,
  tokenCommand,
  riskCommand,
  holdersCommand,
  swapsCommand,
  chartCommand,
  trendingCommand,
  topCommand,
  topicsCommand,
  searchCommand,
  chainsCommand,
  mainCommand,
  pairsCommand,
  liquidityCommand,
  ammCommand,
  checkCommand,
  lbCommand,
  callsCommand,
  pnlCommand,
  settingsCommand,
  autodetectCommand,
];

/** Price alerts and watchlists, with the chat limits from the config. */
function alertCommands(limits: AlertLimits): Command[] {
  return [
    alertCommand(limits), alertsCommand(limits), rearmCommand, unalertCommand(limits),
    watchCommand(limits), unwatchCommand, watchlistCommand(limits),
  ];
}

/**
 * The full list: the base commands, the alert and watchlist commands (`alertLimits`, default
 * 20 alerts and 50 watched tokens a chat), then `extra` (e.g. the digest's subscribe commands),
 * then `/help` (written from this very list) and `/start`. Throws on a duplicate name or alias,
 * a wiring mistake to catch at start rather than in a chat.
 */
export function createCommandList(extra: readonly Command[] = [], alertLimits: AlertLimits = DEFAULT_ALERT_LIMITS): readonly Command[] {
  const list: Command[] = [...BASE, ...alertCommands(alertLimits), ...extra];
  list.push(createHelpCommand(() => list), startCommand);
  const seen = new Set<string>();
  for (const cmd of list) {
    for (const name of [cmd.name, ...(cmd.aliases ?? [])]) {
      if (seen.has(name)) throw new Error(`two commands are called /${name}; rename one`);
      seen.add(name);
    }
  }
  return list;
}
