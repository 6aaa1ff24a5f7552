/**
 * Turns a message into a command name and validated arguments. Input is bounded before any
 * work: over-long messages, hundreds of words, control characters and null bytes get one
 * clear sentence (a UserError), never a lookup.
 */
import type { ArgSpec, ArgValues, Command } from "./command.js";
import { userError, type MessageArgs } from "../i18n/index.js";
import { cleanText } from "./format/index.js";
import { looksLikeAddress } from "./resolve/addresses.js";
import { knownChain } from "./resolve/chains.js";

/** Longest message the parser reads, in characters. */
export const MAX_MESSAGE_LENGTH = 1000;
/** Most words one command takes (the longest real use is `/price` with 20 tokens). */
export const MAX_WORDS = 40;
/** Longest single word (a Solana address is 44, a pasted link can be a few hundred). */
export const MAX_WORD_LENGTH = 300;

/**
 * A command as the platform or the text names it: the name (lowercase, without `/` or
 * `@botname`) and the text of its arguments, not yet split into words.
 */
export interface CommandCall {
  name: string;
  args: string;
}

// Tab and line breaks separate words; every other control character (null bytes included) is refused.
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Opening quote → its closing one. */
const QUOTES: ReadonlyMap<string, string> = new Map([['"', '"'], ["'", "'"], ["“", "”"], ["”", "”"], ["‘", "’"], ["«", "»"]]);

/** Refuses input that is too long or carries control characters; a UserError says which. */
export function checkInput(text: string): void {
  if (text.length > MAX_MESSAGE_LENGTH) {
    throw userError("args-message-too-long", { length: String(text.length), max: String(MAX_MESSAGE_LENGTH) });
  }
  if (FORBIDDEN.test(text)) {
    throw userError("args-message-control");
  }
}

/** Shell-like words: whitespace separates, "double", 'single' and “curly” quotes group. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let closing: string | undefined;
  for (const ch of text) {
    if (closing !== undefined) {
      if (ch === closing) closing = undefined;
      else current += ch;
      continue;
    }
    const close = QUOTES.get(ch);
    if (close !== undefined) {
      closing = close;
      inWord = true;
    } else if (/\s/u.test(ch)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
    // Past the bound the rest is not worth reading.
    if (words.length > MAX_WORDS) break;
  }
  if (closing !== undefined) throw userError("args-quote-open", { closing });
  if (inWord) words.push(current);
  return words;
}

/**
 * `/Price@bot pepe eth` → `{ name: "price", args: "pepe eth" }`, read once in NFKC form (so a
 * full-width `／ｐｒｉｃｅ` is `/price`); `undefined` when the text does not start with `/`.
 */
export function commandCall(text: string): CommandCall | undefined {
  const m = /^\/(\S*)\s*([\s\S]*)$/.exec(text.normalize("NFKC").trim());
  if (m === null) return undefined;
  return { name: (m[1] ?? "").replace(/@[A-Za-z0-9_]*$/, "").toLowerCase(), args: m[2] ?? "" };
}

/** A command's argument text as words, within the bounds (a UserError says which one it broke). */
export function commandWords(args: string): string[] {
  checkInput(args);
  const words = splitWords(args);
  checkWords(words);
  return words;
}

/** Refuses too many or too long words. */
export function checkWords(words: readonly string[]): void {
  if (words.length > MAX_WORDS) {
    throw userError("args-too-many-words", { max: String(MAX_WORDS) });
  }
  for (const w of words) {
    if (w.length > MAX_WORD_LENGTH) {
      throw userError("args-word-too-long", { length: String(w.length), max: String(MAX_WORD_LENGTH) });
    }
    if (FORBIDDEN.test(w)) throw userError("args-word-control");
  }
}

/** How a command is typed, e.g. `/holders <token> [n]`. */
export function usage(cmd: Command): string {
  const parts = cmd.args.map((a) => {
    const inner = a.variadic === true ? `${a.name} …` : a.name;
    return a.required ? `<${inner}>` : `[${inner}]`;
  });
  return [`/${cmd.name}`, ...parts].join(" ");
}

/**
 * The arguments of the usage hint that follows a misuse (`args-hint` in the message files). Its
 * example is the first that gives arguments: after "/lb 7d abc", "e.g. /lb" shows nothing.
 */
function hint(cmd: Command): MessageArgs {
  const example = cmd.examples.find((e) => e.trim().includes(" ")) ?? cmd.examples[0];
  return { command: cmd.name, usage: usage(cmd), example: example ?? "none" };
}

function checkValue(cmd: Command, spec: ArgSpec, value: string): string {
  if (spec.type === "int") {
    // A whole number too long to count is still a whole number: out of range, not malformed.
    const n = /^[+-]?\d{1,9}$/.test(value) ? Number(value) : /^\d+$/.test(value) ? Number.MAX_SAFE_INTEGER : /^-\d+$/.test(value) ? Number.MIN_SAFE_INTEGER : NaN;
    if (Number.isNaN(n)) {
      throw userError("args-not-whole", { ...hint(cmd), name: spec.name, value: cleanText(value, 20) });
    }
    const min = spec.min ?? Number.MIN_SAFE_INTEGER;
    const max = spec.max ?? Number.MAX_SAFE_INTEGER;
    if (n < min || n > max) {
      const key = spec.min !== undefined && spec.max !== undefined ? "args-between" : n < min ? "args-at-least" : "args-at-most";
      throw userError(key, { name: spec.name, min: String(min), max: String(max) });
    }
    return String(n);
  }
  if (spec.choices !== undefined) {
    const lower = value.toLowerCase();
    if (!spec.choices.includes(lower)) {
      // An address where the chain goes: the chain was forgotten, not misspelt.
      if (spec.type === "chain" && looksLikeAddress(value)) {
        throw userError("args-chain-first", { ...hint(cmd), choices: spec.choices.join(", ") });
      }
      if (spec.type === "chain") throw userError("args-chain-only", { command: cmd.name, choices: spec.choices.join(", "), value: cleanText(value, 24) });
      throw userError("args-not-choice", { name: spec.name, value: cleanText(value, 40), choices: spec.choices.join(", ") });
    }
    return lower;
  }
  return value;
}

/**
 * Matches words to a command's ArgSpecs: required, int bounds, choices, variadic. Extra words
 * after a last free-text or token argument join it (`/token shiba inu`); elsewhere they are an
 * error that shows the usage.
 */
export function bindArgs(cmd: Command, words: readonly string[]): ArgValues {
  checkWords(words);
  const values: ArgValues = {};
  const specs = cmd.args;
  let i = 0;
  for (const [k, spec] of specs.entries()) {
    const isLast = k === specs.length - 1;
    if (spec.variadic === true) {
      const rest = words.slice(i).map((w) => checkValue(cmd, spec, w));
      if (rest.length === 0 && spec.required) throw userError("args-needs-one", { ...hint(cmd), type: spec.type });
      values[spec.name] = rest.length === 0 ? undefined : rest;
      i = words.length;
      continue;
    }
    const word = words[i];
    if (word === undefined) {
      if (spec.required) throw userError("args-needs", { ...hint(cmd), name: spec.name });
      continue;
    }
    // `/lb 25`: an optional argument of set choices is left out when the word is none of them but a whole number, the int after it.
    const following = specs[k + 1];
    if (!spec.required && spec.choices !== undefined && following?.type === "int" && !spec.choices.includes(word.toLowerCase()) && /^[+-]?\d+$/.test(word)) continue;
    const joinRest = isLast && (spec.type === "text" || spec.type === "token") && spec.choices === undefined;
    // `/holders pepe bsc 20`: a chain word right after a token belongs to it.
    const next = words[i + 1];
    const withChain = !joinRest && spec.type === "token" && next !== undefined && knownChain(next) !== undefined;
    const raw = joinRest ? words.slice(i).join(" ") : withChain ? `${word} ${next}` : word;
    values[spec.name] = checkValue(cmd, spec, raw);
    i = joinRest ? words.length : withChain ? i + 2 : i + 1;
  }
  if (i < words.length) {
    throw userError("args-fewer-words", hint(cmd));
  }
  return values;
}

/** Values a platform gives by argument name (Discord's options): argument name → the value. */
export type NamedValues = ReadonlyMap<string, string>;

/**
 * Binds values given by argument name (Discord's options) to a command's ArgSpecs, each
 * checked as a typed word is. An optional argument left out is absent, and no later one moves
 * into its place. A variadic value splits into words on spaces only: commas stay, so
 * `pepe bsc, wif` groups as typed and a cron schedule keeps its commas.
 */
export function bindNamed(cmd: Command, named: NamedValues): ArgValues {
  const specs = new Map(cmd.args.map((a) => [a.name, a]));
  for (const name of named.keys()) if (!specs.has(name)) throw new Error(`/${cmd.name} has no argument ${JSON.stringify(name)}`);
  const given = cmd.args.map((spec) => {
    const value = named.get(spec.name) ?? "";
    return { spec, words: spec.variadic === true ? value.split(/\s+/).filter((w) => w !== "") : value.trim() === "" ? [] : [value] };
  });
  checkWords(given.flatMap((g) => g.words));
  const values: ArgValues = {};
  for (const { spec, words } of given) {
    const [first] = words;
    if (first === undefined) {
      if (spec.required) throw spec.variadic === true ? userError("args-needs-one", { ...hint(cmd), type: spec.type }) : userError("args-needs", { ...hint(cmd), name: spec.name });
      continue;
    }
    values[spec.name] = spec.variadic === true ? words.map((w) => checkValue(cmd, spec, w)) : checkValue(cmd, spec, first);
  }
  return values;
}
