/**
 * The command core behind `BotCore`: parse, budget, run, and one catch site that turns every
 * failure into a reply. Adapters call it; it calls the market and the store; never back up.
 */
import type { Logger } from "pino";
import type { AlertLimits } from "../alerts/limits.js";
import type { CachedMarket } from "../cache/types.js";
import type { ChartRenderer } from "../chart/types.js";
import type { Platform, Store } from "../store/types.js";
import { bindArgs, checkWords, commandCall, commandWords } from "./args.js";
import type { BotCore, Choice, InlineCard } from "./bot-core.js";
import { createBudget, type BudgetOptions } from "./budget.js";
import { chatEvents } from "./chat-events.js";
import type { ChatContext, Command, CommandContext } from "./command.js";
import { autodetectOn } from "./commands/autodetect.js";
import { createCommandList } from "./commands/index.js";
import { resolveArg } from "./commands/resolution.js";
import { tokenCard } from "./commands/token.js";
import { UserError } from "./errors.js";
import { failureReply } from "./failure.js";
import { asking, newAsk } from "../market/ask.js";
import { DIGEST_LANE } from "../market/scheduler-lanes.js";
import { errorReply, type Reply } from "./reply.js";
import { findAddresses, type TokenInput } from "./resolve/index.js";
import { createSuggestionIndex, noting } from "./suggest.js";

export interface CoreDeps {
  market: CachedMarket;
  store: Store;
  charts: ChartRenderer;
  log: Logger;
  /** Footer source label, e.g. "Token Market Data Service" or "demo data (sandbox)". */
  source: string;
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Command budgets. Defaults: 10 a minute per user, 30 per chat. */
  budget?: BudgetOptions;
  /** Platforms outside the budget. Default `["console"]`: the person at the terminal runs the bot. */
  unmetered?: readonly Platform[];
  /** Commands added to the registry before /help and /start (e.g. the digest's). Default none. */
  extraCommands?: readonly Command[];
  /** Alerts and watched tokens a chat may hold. Default 20 and 50. */
  alertLimits?: AlertLimits;
}

/** Autocomplete with fewer choices than this asks the service in the background. */
const WARM_BELOW = 5;
/** Background searches autocomplete may start per minute. */
const WARM_PER_MINUTE = 30;
/** Queries worth a background search: 2–32 letters or digits (symbols and names). */
const WARMABLE = /^[\p{L}\p{N}]{2,32}$/u;

/** Longest inline query worth a search (the longest keyword `/search` sends). */
const INLINE_SEARCH_MAX = 64;

/** Longest free text `detect` reads (a Telegram message is at most 4096 characters). */
const DETECT_MAX_LENGTH = 4096;

/** How a command over budget is refused (see `admit`). */
type Over = "polite" | "quiet" | "always";

function seconds(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return s === 1 ? "1 second" : `${s} seconds`;
}

export function createBotCore(deps: CoreDeps): BotCore {
  const now = deps.now ?? Date.now;
  const commands = createCommandList(deps.extraCommands, deps.alertLimits);
  const byName = new Map<string, Command>();
  for (const cmd of commands) for (const n of [cmd.name, ...(cmd.aliases ?? [])]) byName.set(n, cmd);
  const budget = createBudget(deps.budget);
  const unmetered = new Set<Platform>(deps.unmetered ?? ["console"]);
  const index = createSuggestionIndex();
  const market = noting(deps.market, index);

  /** Whether the chat's auto-detect is on; a store failure is logged and counts as off. */
  const autodetectWanted = (chat: ChatContext): Promise<boolean> =>
    deps.store.getSettings(chat).then(
      (settings) => autodetectOn(settings, chat),
      (e: unknown) => {
        deps.log.error({ err: e instanceof Error ? e.message : String(e), chatId: chat.chatId }, "could not read chat settings for auto-detect");
        return false;
      },
    );

  /** One search whose results feed the suggestion index (through `noting`); a failure is only logged. */
  const searchSuggestions = (q: string): Promise<void> =>
    market.search({ keyword: q, limit: 25 }).then(
      () => undefined,
      (e: unknown) => deps.log.debug({ err: e instanceof Error ? e.message : String(e) }, "suggestion search failed"),
    );

  let warmWindowStart = 0;
  let warmedInWindow = 0;
  /**
   * Starts a search for a query autocomplete could not answer well, without waiting for it, so
   * the next keystroke finds the tokens; bounded per minute to spare the service's quota.
   */
  function warm(q: string): void {
    if (!WARMABLE.test(q)) return;
    const t = now();
    if (t - warmWindowStart >= 60_000) {
      warmWindowStart = t;
      warmedInWindow = 0;
    }
    if (warmedInWindow >= WARM_PER_MINUTE) return;
    warmedInWindow++;
    void searchSuggestions(q);
  }

  function context(chat: ChatContext): CommandContext {
    return { market, store: deps.store, chat, now, log: deps.log, charts: deps.charts, source: deps.source };
  }

  function find(name: string): Command {
    const cmd = byName.get(name);
    if (cmd === undefined) {
      const shown = name.slice(0, 32) || "that";
      throw new UserError(`I don't know /${shown}; /help lists what I can do.`);
    }
    return cmd;
  }

  /**
   * Takes one unit of the budget: `undefined` when the command may run, else what to answer
   * instead. `over` says how to refuse: "polite" once then silence, "quiet" always silence,
   * "always" the sentence every time (the caller owes an answer).
   */
  async function admit(chat: ChatContext, over: Over): Promise<Reply | null | undefined> {
    if (unmetered.has(chat.platform)) return undefined;
    const verdict = await budget.take(chat.userId, `${chat.platform}:${chat.chatId}`, now());
    if (verdict.kind === "ok") return undefined;
    if (over === "quiet" || (verdict.kind === "silent" && over === "polite")) return null;
    const who = verdict.scope === "user" ? "You are" : "This chat is";
    return errorReply(`${who} sending commands faster than I answer them; try again in ${seconds(verdict.retryInMs)}.`, "user");
  }

  /** `work`'s reply, or the reply to its failure; the only catch site of the core. */
  async function caught(commandText: string, work: () => Promise<Reply>): Promise<Reply> {
    try {
      return await work();
    } catch (error) {
      try {
        return failureReply(error, { log: deps.log, commandText });
      } catch {
        return errorReply("Something went wrong on my side.", "internal");
      }
    }
  }

  /** Runs `work` inside the budget. */
  async function guarded(
    chat: ChatContext,
    commandText: string,
    work: () => Promise<Reply>,
    over: Over = "polite",
  ): Promise<Reply | null> {
    const refused = await admit(chat, over);
    return refused === undefined ? caught(commandText, work) : refused;
  }

  /** The card of `choice`, or undefined when it failed (logged like any command). */
  async function inlineCard(chat: ChatContext, choice: Choice): Promise<InlineCard | undefined> {
    const ctx = context(chat);
    const card = await caught(`(inline) ${choice.value}`, async () => tokenCard(ctx, await resolveArg(ctx, choice.value), { command: "token" }));
    return card.error === undefined ? { ...choice, card } : undefined;
  }

  return {
    commands,
    handleText(chat, text) {
      const call = commandCall(text);
      if (call === undefined) return guarded(chat, text, () => Promise.reject(new UserError("Commands start with /; try /help.")));
      return this.command(chat, call);
    },
    command(chat, call) {
      return guarded(chat, call.args === "" ? `/${call.name}` : `/${call.name} ${call.args}`, async () => {
        const cmd = find(call.name);
        return cmd.run(context(chat), bindArgs(cmd, commandWords(call.args)));
      });
    },
    async post(chat, command, args, opts = {}) {
      // Nobody typed it: no budget, and nobody whose rights could count.
      const where: ChatContext = { ...chat, userId: "", isPrivate: false, isAdmin: async () => false };
      const lane = opts.lane ?? DIGEST_LANE;
      return asking(newAsk(lane, undefined, now), () =>
        caught(`(${lane}) /${command} ${args.join(" ")}`, async () => {
          const cmd = find(command);
          return cmd.run({ ...context(where), previousRanking: opts.previousRanking }, bindArgs(cmd, args));
        }),
      );
    },
    run(chat, command, args) {
      const text = `/${command} ${args.join(" ")}`;
      return guarded(chat, text, async () => {
        checkWords(args);
        const cmd = find(command.toLowerCase());
        return cmd.run(context(chat), bindArgs(cmd, args));
      });
    },
    async detect(chat, text, opts = {}) {
      let found: TokenInput | undefined;
      try {
        found = findAddresses(text.slice(0, DETECT_MAX_LENGTH)).find((f) => f.kind === "id" || f.kind === "address");
      } catch (error) {
        deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, "address detection failed");
        return null;
      }
      if (found === undefined) return null;
      // Unasked, a paste is answered only where the chat's auto-detect is on.
      if (opts.asked !== true && !(await autodetectWanted(chat))) return null;
      const input = found;
      const reply = await guarded(
        chat,
        `(pasted) ${"address" in input ? input.address : ""}`,
        async () => tokenCard(context(chat), await resolveArg(context(chat), input), { command: "token" }),
        opts.asked === true ? "always" : "quiet",
      );
      // A pasted address the service does not know is noise in a group; in a private chat the person asked.
      if (reply !== null && reply.error !== undefined && !chat.isPrivate && opts.asked !== true) return null;
      return reply;
    },
    async inlineCards(chat, query, max) {
      const q = query.trim();
      if (q === "") return [];
      if ((await admit(chat, "quiet")) !== undefined) return null;
      let choices = index.suggest(q);
      if (choices.length === 0 && q.length <= INLINE_SEARCH_MAX) {
        await searchSuggestions(q);
        choices = index.suggest(q);
      }
      const cards = await Promise.all(choices.slice(0, Math.max(0, max)).map((c) => inlineCard(chat, c)));
      return cards.filter((c): c is InlineCard => c !== undefined);
    },
    suggestTokens(query) {
      try {
        const choices = index.suggest(query);
        if (choices.length < WARM_BELOW) warm(query.trim().toLowerCase());
        return choices;
      } catch {
        return [];
      }
    },
    chats: chatEvents(deps.store, deps.log),
  };
}
