/**
 * The message files, one per locale: `locales/<locale>.ftl` (Fluent) at the package root,
 * shipped beside `dist/`. Every file in the folder is a locale, so adding a language is adding
 * a file. Read once, at start (`loadCatalog` throws on a file Fluent cannot parse).
 */
import { readdirSync, readFileSync } from "node:fs";
import { FluentBundle, FluentResource } from "@fluent/bundle";
import { DEFAULT_LOCALE, matchLocale } from "./locale.js";
import { createTranslator, type Translator } from "./translator.js";

/** `locales/` beside `src/` and `dist/`. */
export const LOCALES_DIR = new URL("../../locales/", import.meta.url);

export interface Catalog {
  /** Every locale, the default (`en`) first. */
  readonly locales: readonly string[];
  /** The translator for `locale`; the default locale's for one the catalog lacks. */
  translator(locale: string): Translator;
  /** The message ids of `locale`'s file (empty for an unknown locale). */
  keys(locale: string): ReadonlySet<string>;
}

function bundleOf(locale: string, source: string, file: string): FluentBundle {
  // Isolation marks would ride along when someone copies a contract address out of a reply.
  const bundle = new FluentBundle(locale, { useIsolating: false });
  const resource = new FluentResource(source);
  const errors = bundle.addResource(resource);
  if (errors.length > 0) throw new Error(`${file}: ${errors.map((e) => e.message).join("; ")}`);
  // FluentResource skips lines it cannot parse without an error; comparing ids with the body finds them.
  const declared = source.split("\n").filter((line) => /^-?[a-zA-Z][\w-]*\s*=/.test(line)).length;
  const parsed = resource.body.length;
  if (parsed !== declared) throw new Error(`${file}: ${declared - parsed} message(s) could not be parsed; check the Fluent syntax`);
  return bundle;
}

/** Reads every `*.ftl` in `dir`. Throws when the default locale's file is missing or a file is broken. */
export function loadCatalog(dir: URL | string = LOCALES_DIR): Catalog {
  const files = readdirSync(dir).filter((f) => f.endsWith(".ftl")).sort();
  const bundles = new Map<string, FluentBundle>();
  for (const file of files) {
    const locale = file.slice(0, -".ftl".length);
    bundles.set(locale, bundleOf(locale, readFileSync(new URL(file, dir), "utf8"), file));
  }
  const fallback = bundles.get(DEFAULT_LOCALE);
  if (fallback === undefined) throw new Error(`the message file ${DEFAULT_LOCALE}.ftl is missing from ${String(dir)}`);
  const translators = new Map([...bundles].map(([locale, bundle]) => [locale, createTranslator(locale, bundle, fallback)]));
  const locales = [DEFAULT_LOCALE, ...[...bundles.keys()].filter((l) => l !== DEFAULT_LOCALE)];
  return {
    locales,
    translator: (locale) => translators.get(locale) ?? (translators.get(DEFAULT_LOCALE) as Translator),
    keys: (locale) => new Set(bundles.get(locale)?._messages.keys() ?? []),
  };
}

let shared: Catalog | undefined;

/** The package's own message files, read on first use (`build-core` asks at start so a broken file stops the start). */
export function messages(): Catalog {
  shared ??= loadCatalog();
  return shared;
}

/** The translator for a platform's language tag (`zh-CN`, `zh-hans`, `en-US`); the default locale's when none matches. */
export function wordsFor(tag: string | undefined): Translator {
  const catalog = messages();
  return catalog.translator(matchLocale(tag, catalog.locales) ?? DEFAULT_LOCALE);
}
