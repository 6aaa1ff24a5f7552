export { type Catalog, loadCatalog, LOCALES_DIR, messages } from "./catalog.js";
export { callerLocale, chatLocale, type LanguageHints } from "./choose.js";
export { DEFAULT_LOCALE, matchLocale, primaryLanguage } from "./locale.js";
export { createTranslator, type LocalMessage, type MessageArgs, type Translator } from "./translator.js";
