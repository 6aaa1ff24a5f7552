/**
 * The words after `/buys <token>`: `min <usd>`, `sells on|off`, `whale <usd>`, `emoji <emoji>`,
 * `step <usd>`, `media [off]`, in any order; the options not named keep their values. Amounts take what people
 * type (`250`, `$1.5k`, `2k`, `1,000`). Every word is looked up in a Map, never as a property.
 */
import type { BuyOptions } from "../store/types.js";

export const DEFAULT_OPTIONS: BuyOptions = { minUsd: "50", sells: false, whaleUsd: "10000", emoji: "🟢", stepUsd: "50" };

export type OptionError =
  | { error: "amount"; word: string; value: string }
  | { error: "switch"; value: string }
  | { error: "emoji"; value: string }
  | { error: "unknown"; word: string }
  | { error: "missing"; word: string; example: string };

const SUFFIX = new Map([["", 1], ["k", 1_000], ["m", 1_000_000]]);
const SWITCH = new Map([["on", true], ["off", false], ["yes", true], ["no", false]]);
const AMOUNT_OPTIONS = new Map<string, "minUsd" | "whaleUsd" | "stepUsd">([["min", "minUsd"], ["whale", "whaleUsd"], ["step", "stepUsd"]]);
/** An emoji sequence Unicode recommends: flags (🇺🇸, 🏴󠁧󠁢󠁳󠁣󠁴󠁿), keycaps (1️⃣), skin tones, joined families. Built at run time: the `v` flag is newer than the compile target. */
const RGI_EMOJI = new RegExp("^\\p{RGI_Emoji}$", "v");
/** One pictograph, with its variation selector, skin tone or joined parts (also ❤ typed without its selector): never text or markup. */
const PICTOGRAPH = /^\p{Extended_Pictographic}(\uFE0F|\p{Emoji_Modifier}|\u200D\p{Extended_Pictographic}\uFE0F?)*$/u;
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });
/** What to type after an option that was left without its value. */
const EXAMPLE = new Map([["min", "250"], ["whale", "5k"], ["step", "100"], ["sells", "on"], ["emoji", "🚀"]]);

/** Whether `text` is one emoji as people see it: one grapheme that is an emoji sequence or a pictograph. */
export function isOneEmoji(text: string): boolean {
  if (text.length > 16) return false;
  const [first, second] = GRAPHEMES.segment(text);
  return first !== undefined && second === undefined && (RGI_EMOJI.test(text) || PICTOGRAPH.test(text));
}

/** `250`, `$1.5k`, `2K`, `1,000` → a positive decimal text of USD; undefined when it is not one. */
export function parseUsd(word: string): string | undefined {
  const m = /^\$?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([kKmM]?)$/.exec(word.trim());
  if (!m) return undefined;
  const n = Number(`${(m[1] ?? "").replaceAll(",", "")}${m[3] ?? ""}`) * (SUFFIX.get((m[4] ?? "").toLowerCase()) ?? 1);
  const cents = Math.round(n * 100);
  // Below half a cent the amount would be kept as $0: a minimum that posts every dust trade.
  if (!Number.isFinite(n) || cents <= 0 || n > 1e12) return undefined;
  return String(cents / 100);
}

/**
 * Applies the option words to `base`; the first word that is not right is the error. `media`
 * (show the picture the command came with on whale posts) and `media off` are said in `media`.
 */
export function applyOptions(base: BuyOptions, words: readonly string[]): { options: BuyOptions; media?: "set" | "off" } | OptionError {
  const out: BuyOptions = { ...base };
  let media: "set" | "off" | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = (words[i] ?? "").toLowerCase();
    const value = words[i + 1];
    if (word === "media") {
      const off = value?.toLowerCase() === "off";
      media = off ? "off" : "set";
      if (off) i++;
      continue;
    }
    const amount = AMOUNT_OPTIONS.get(word);
    if (amount === undefined && word !== "sells" && word !== "emoji") return { error: "unknown", word: words[i] ?? "" };
    if (value === undefined) return { error: "missing", word, example: EXAMPLE.get(word) ?? "" };
    i++;
    if (amount !== undefined) {
      const usd = parseUsd(value);
      if (usd === undefined) return { error: "amount", word, value };
      out[amount] = usd;
    } else if (word === "sells") {
      const on = SWITCH.get(value.toLowerCase());
      if (on === undefined) return { error: "switch", value };
      out.sells = on;
    } else {
      if (!isOneEmoji(value)) return { error: "emoji", value };
      out.emoji = value;
    }
  }
  return { options: out, ...(media === undefined ? {} : { media }) };
}
