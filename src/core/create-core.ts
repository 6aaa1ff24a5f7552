/**
 * The command core behind `BotCore`: parse, budget, run, and one catch site that turns every
 * failure into a reply. Adapters call it; it calls the market and the store; never back up.
 */
import type { Logger } from "pino";
import type { AlertLimits } from "./alerts/limits.js";
import type { CachedMarket } from "../cache/types.js";
import type { CallRules } from "../calls/rules.js";
import type { ChartRenderer } from "../chart/types.js";
import type { Platform, Store } from "../store/types.js";
import { bindArgs, bindNamed, checkWords, commandCall, commandWords } from "./args.js";
import type { BotCore, Choice, InlineAnswer, InlineCard } from "./bot-core.js";
import { createBudget, type BudgetOptions, type BudgetVerdict } from "./budget.js";
import { chatEvents } from "./chat-events.js";
import { isUserError } from "./errors.js";
import type { ChatContext, Command, CommandContext, FirstRun } from "./command.js";
import { autodetectOn } from "./commands/autodetect.js";
import { createCommandList } from "./commands/index.js";
import { resolveArg } from "./commands/resolution.js";
import { tokenCard } from "./commands/token.js";
import { commandAsk, DEFAULT_ANSWER_DEADLINE_MS, freshnessOf, withStaleNote, type Freshness } from "./answer-deadline.js";
import { asking, newAsk } from "../market/ask.js";
import { DIGEST_LANE } from "../market/scheduler-lanes.js";
import { failureReply } from "./failure.js";
import { askAgainWhenOlder, type Answering, type FresherOptions } from "./fresher.js";
import { cleanText } from "./format/index.js";
import { errorReply, type Reply } from "./reply.js";
import { deadlineStore } from "./store-deadline.js";
import { findAddresses, parseTokenInput, type Resolution, type TokenInput } from "./resolve/index.js";
import { callerLocale, chatLocale, messages, type Catalog, type Translator } from "../i18n/index.js";
import { createPostRenderer } from "./posts/renderer.js";
import { createSuggestionIndex, noting, tokenLabel } from "./suggest.js";

export interface CoreDeps {
  market: CachedMarket;
  store: Store;
  charts: ChartRenderer;
  log: Logger;
  /** Footer source label, e.g. "Token Market Data Service" or "demo data (sandbox)", or the label in a language. */
  source: string | ((i18n: Translator) => string);
  /** Clock in epoch ms. Default `Date.now`. */
  now?: () => number;
  /** Command budgets. Defaults: 10 a minute per user, 30 per chat (19 in a Telegram group). */
  budget?: BudgetOptions;
  /** Platforms outside the budget. Default `["console"]`: the person at the terminal runs the bot. */
  unmetered?: readonly Platform[];
  /** Commands added to the registry before /help and /start (e.g. the digest's). Default none. */
  extraCommands?: readonly Command[];
  /** Alerts and watched tokens a chat may hold. Default 20 and 50. */
  alertLimits?: AlertLimits;
  /** The message files. Default the package's own (`locales/*.ftl`). */
  catalog?: Catalog;
  /** Time from a message's arrival to its answer, ms (`ANSWER_DEADLINE_MS`). Default 2500. */
  answerDeadlineMs?: number;
  /** Told how fresh each command's answer was (metrics). */
  onAnswer?: (freshness: Freshness) => void;
  /** How calls are kept (`CALLS_WINDOW_DAYS`, `CALLS_SWEEP_MINUTES`). Default 30 days and 60 minutes. */
  calls?: CallRules;
  /** When an answer that showed older data is asked again. Default after 3 s and 10 s. */
  fresher?: FresherOptions;
}

/** A chat's words: `chat` for what everyone sees, `caller` for what only the caller sees (Discord). */
interface Languages {
  chat: Translator;
  caller: Translator;
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

/** A command's work in a language; `reasked` when the core asks again for fresher data. */
type Work = (i18n: Translator, reasked?: FirstRun) => Promise<Reply>;

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
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
  const store = deadlineStore(deps.store);

  /** Whether the chat's auto-detect is on; a store failure is logged and counts as off. */
  const autodetectWanted = (chat: ChatContext): Promise<boolean> =>
    deps.store.getSettings(chat).then(
      (settings) => autodetectOn(settings, chat),
      (e: unknown) => {
        deps.log.error({ err: e instanceof Error ? e.message : String(e), chatId: chat.chatId }, "could not read chat settings for auto-detect");
        return false;
      },
    );
  const catalog = deps.catalog ?? messages();
  const posts = createPostRenderer({ settings: deps.store, source: deps.source, log: deps.log, catalog });

  /** The chat's `/settings language` with the platform's hints; a store failure leaves the hints to choose. */
  async function languages(chat: ChatContext): Promise<Languages> {
    let setting: string | undefined;
    try {
      setting = (await store.getSettings({ platform: chat.platform, chatId: chat.chatId })).language;
    } catch (error) {
      deps.log.debug({ err: error instanceof Error ? error.message : String(error) }, "chat language unknown: settings unreadable");
    }
    const hints = { platform: chat.platform, isPrivate: chat.isPrivate, setting, user: chat.userLanguage, server: chat.serverLanguage };
    return {
      chat: catalog.translator(chatLocale(hints, catalog.locales)),
      caller: catalog.translator(callerLocale(hints, catalog.locales)),
    };
  }

  /** One search whose results feed the suggestion index (through `noting`); false when it failed, which is only logged. */
  const searchSuggestions = (q: string): Promise<boolean> =>
    market.search({ keyword: q, limit: 25 }).then(
      () => true,
      (e: unknown) => {
        deps.log.debug({ err: e instanceof Error ? e.message : String(e) }, "suggestion search failed");
        return false;
      },
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
    void asking(newAsk("refresh", undefined, now), async () => void (await searchSuggestions(q)));
  }

  function context(chat: ChatContext, i18n: Translator, reasked?: FirstRun): CommandContext {
    const source = typeof deps.source === "string" ? deps.source : deps.source(i18n);
    return {
      market, store, chat, now, log: deps.log, charts: deps.charts, source, i18n, catalog,
      ...(deps.calls === undefined ? {} : { calls: deps.calls }),
      ...(reasked === undefined ? {} : { reasked }),
      redraw: (name, args) => {
        const cmd = find(name, i18n);
        return cmd.run(context(chat, i18n), bindArgs(cmd, args));
      },
    };
  }

  function find(name: string, i18n: Translator): Command {
    const cmd = byName.get(name);
    if (cmd === undefined) {
      const shown = name === "" ? "" : cleanText(name, 32);
      throw shown === "" ? i18n.fail("core-unknown-command-empty") : i18n.fail("core-unknown-command", { name: shown });
    }
    return cmd;
  }

  /** Takes one unit of the budget; the verdict when it is spent, undefined when the command may run. */
  async function overBudget(chat: ChatContext, quiet: boolean): Promise<Exclude<BudgetVerdict, { kind: "ok" }> | undefined> {
    if (unmetered.has(chat.platform)) return undefined;
    // A Telegram group takes about 20 messages a minute: more commands would only be refused.
    const telegramGroup = chat.platform === "telegram" && !chat.isPrivate;
    const verdict = await budget.take(chat.userId, `${chat.platform}:${chat.chatId}`, now(), telegramGroup, quiet);
    return verdict.kind === "ok" ? undefined : verdict;
  }

  /**
   * Takes one unit of the budget: `undefined` when the command may run, else what to answer
   * instead. `over` says how to refuse: "polite" once then silence, "quiet" always silence and
   * not counted, so the polite sentence is still owed to the next command, "always" the
   * sentence every time (the caller owes an answer).
   */
  async function admit(chat: ChatContext, over: Over): Promise<((i18n: Translator) => Reply) | null | undefined> {
    const verdict = await overBudget(chat, over === "quiet");
    if (verdict === undefined) return undefined;
    if (over === "quiet" || (verdict.kind === "silent" && over === "polite")) return null;
    const args = { seconds: seconds(verdict.retryInMs) };
    return (i18n) => errorReply(i18n.t(verdict.scope === "user" ? "core-budget-user" : "core-budget-chat", args), "user");
  }

  /**
   * `work`'s reply, or the reply to its failure, in the chat's language; the only catch site of
   * the core. An answer asked again (`reasked`) is not counted as one more answer.
   */
  async function caught(
    chat: ChatContext,
    commandText: string,
    langs: Languages,
    work: Work,
    ask = commandAsk(chat.receivedAt ?? now(), deps.answerDeadlineMs ?? DEFAULT_ANSWER_DEADLINE_MS, now),
    reasked?: FirstRun,
  ): Promise<Reply> {
    try {
      const reply = await asking(ask, () => work(langs.chat, reasked));
      if (reasked === undefined) deps.onAnswer?.(freshnessOf(ask));
      return { locale: langs.chat.locale, ...withStaleNote(reply, ask, now(), langs.chat) };
    } catch (error) {
      if (reasked === undefined) deps.onAnswer?.(freshnessOf(ask, error));
      try {
        const reply = failureReply(error, { log: deps.log, commandText, now: now(), i18n: langs.chat, callerI18n: langs.caller });
        return { ...reply, locale: reply.error === "user" ? langs.caller.locale : langs.chat.locale };
      } catch {
        return { ...errorReply(langs.chat.t("core-sorry"), "internal"), locale: langs.chat.locale };
      }
    }
  }

  /**
   * Runs `work` inside the budget. An answer that showed older data is asked again outside
   * it, and a fresher one handed to `answering.onFresher` (`fresher.ts`).
   */
  async function guarded(
    chat: ChatContext,
    commandText: string,
    work: Work,
    over: Over = "polite",
    answering: Answering = {},
  ): Promise<Reply | null> {
    const from = now();
    const refused = await admit(chat, answering.owed === true ? "always" : over);
    if (refused === null) return null;
    const deadlineMs = deps.answerDeadlineMs ?? DEFAULT_ANSWER_DEADLINE_MS;
    // The chat's language is read within the answer deadline too: a hung database holds no command.
    const ask = commandAsk(chat.receivedAt ?? now(), deadlineMs, now);
    const langs = await asking(ask, () => languages(chat));
    if (refused !== undefined) return { ...refused(langs.caller), locale: langs.caller.locale };
    const reply = await caught(chat, commandText, langs, work, ask);
    const first: FirstRun = { from, to: now() };
    // Asked again, the question has a deadline of its own, counted from then.
    const again = () => caught(chat, commandText, langs, work, commandAsk(now(), deadlineMs, now), first);
    void askAgainWhenOlder(reply, again, answering, deps.fresher ?? {}, deps.log);
    return reply;
  }

  /**
   * The card of a token chosen from the suggestions (`Choice`) or typed (a link, an address, a
   * symbol with its chain), or the sentence of why it failed (logged like any command).
   */
  async function inlineCard(chat: ChatContext, langs: Languages, wanted: Choice | TokenInput, typed: string): Promise<InlineCard | { failed: string }> {
    let found: Resolution | undefined;
    const card = await caught(chat, `(inline) ${typed}`, langs, async (i18n) => {
      const ctx = context(chat, i18n);
      found = await resolveArg(ctx, "value" in wanted ? wanted.value : wanted);
      return tokenCard(ctx, found, { command: "token", chart: false });
    });
    if (card.error !== undefined || found === undefined) return { failed: card.title };
    if ("value" in wanted) return { ...wanted, card };
    return { name: found.token === undefined ? cleanText(card.title, 100) : tokenLabel(found.token, langs.chat.locale), value: found.tokenId, card };
  }

  /** The cards that were found, or the first failure's sentence when none was. */
  function inlineAnswer(made: readonly (InlineCard | { failed: string })[], none: string): InlineAnswer {
    const cards = made.filter((c): c is InlineCard => !("failed" in c));
    if (cards.length > 0) return { cards };
    const failed = made.find((c): c is { failed: string } => "failed" in c);
    return { cards, notice: failed?.failed ?? none };
  }

  return {
    commands,
    handleText(chat, text, answering) {
      const call = commandCall(text);
      if (call === undefined) return guarded(chat, text, (i18n) => Promise.reject(i18n.fail("core-not-a-command")));
      return this.command(chat, call, answering);
    },
    command(chat, call, answering) {
      return guarded(chat, call.args === "" ? `/${call.name}` : `/${call.name} ${call.args}`, async (i18n, reasked) => {
        const cmd = find(call.name, i18n);
        return cmd.run(context(chat, i18n, reasked), bindArgs(cmd, commandWords(call.args)));
      }, "polite", answering);
    },
    async post(chat, command, args, opts = {}) {
      // Nobody typed it: no budget, and nobody whose rights or language could count.
      const where: ChatContext = { ...chat, userId: "", isPrivate: false, isAdmin: async () => false };
      const lane = opts.lane ?? DIGEST_LANE;
      return caught(where, `(${lane}) /${command} ${args.join(" ")}`, await languages(where), async (i18n) => {
        const cmd = find(command, i18n);
        return cmd.run({ ...context(where, i18n), previousRanking: opts.previousRanking }, bindArgs(cmd, args));
      }, newAsk(lane, undefined, now));
    },
    render: posts.render,
    run(chat, command, args, answering) {
      const text = `/${command} ${args.join(" ")}`;
      return guarded(chat, text, async (i18n, reasked) => {
        checkWords(args);
        const cmd = find(command.toLowerCase(), i18n);
        return cmd.run(context(chat, i18n, reasked), bindArgs(cmd, args));
      }, "polite", answering);
    },
    runNamed(chat, command, named, answering) {
      const text = [`/${command}`, ...[...named].map(([name, value]) => `${name}:${value}`)].join(" ");
      return guarded(chat, text, async (i18n, reasked) => {
        const cmd = find(command.toLowerCase(), i18n);
        return cmd.run(context(chat, i18n, reasked), bindNamed(cmd, named));
      }, "polite", answering);
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
        async (i18n, reasked) => {
          const ctx = context(chat, i18n, reasked);
          return tokenCard(ctx, await resolveArg(ctx, input), { command: "token" });
        },
        opts.asked === true ? "always" : "quiet",
        opts,
      );
      // A pasted address the service does not know is noise in a group; in a private chat the person asked.
      if (reply !== null && reply.error !== undefined && !chat.isPrivate && opts.asked !== true) return null;
      return reply;
    },
    async inlineCards(chat, query, max) {
      const q = query.trim();
      const langs = await languages(chat);
      const { t } = langs.chat;
      if (q === "") return { cards: [], notice: t("inline-hint") };
      const over = await overBudget(chat, true);
      if (over !== undefined) return { cards: [], refused: true, notice: t("inline-busy", { seconds: seconds(over.retryInMs) }) };
      // What a command refuses (control characters, a word too long) an inline query does too, in the same words.
      try {
        checkWords(commandWords(q));
      } catch (e) {
        if (isUserError(e)) return { cards: [], notice: t(e.key, e.args) };
        throw e;
      }
      const typed = parseTokenInput(q);
      // A malformed address is never searched for: /token's sentence says what is wrong with it.
      if (typed.kind === "malformed") return { cards: [], notice: t(typed.said.key, typed.said.args) };
      const none = t("inline-none", { query: cleanText(q, 32) });
      // A link, an address or a symbol with its chain names one token: the one /price takes.
      if (max > 0 && (typed.kind === "id" || typed.kind === "address" || (typed.kind === "query" && typed.chain !== undefined))) {
        return inlineAnswer([await inlineCard(chat, langs, typed, q)], none);
      }
      const words = typed.kind === "query" ? typed.text : q;
      // Titles in the reader's language, as the cards under them: 万 and 亿 in Chinese.
      let choices = index.suggest(words, undefined, langs.chat.locale);
      if (choices.length === 0 && words.length <= INLINE_SEARCH_MAX) {
        if (!(await searchSuggestions(words))) return { cards: [], notice: t("inline-unavailable") };
        choices = index.suggest(words, undefined, langs.chat.locale);
      }
      return inlineAnswer(await Promise.all(choices.slice(0, Math.max(0, max)).map((c) => inlineCard(chat, langs, c, c.value))), none);
    },
    async callerWords(chat) {
      return (await languages(chat)).caller;
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
