export { type Catalog, loadCatalog, LOCALES_DIR, messages, wordsFor } from "./catalog.js";
export { callerLocale, chatLocale, unsetLanguageFollows } from "./choose.js";
export { DEFAULT_LOCALE, primaryLanguage } from "./locale.js";
export { argKey, choiceLabel, commandKey, describeArg, describeCommand } from "./commands.js";
export type { Translator } from "./translator.js";
export { type LocalMessage, type MessageArgs, userError } from "./message.js";
export { postLanguage, sourceIn } from "./posts.js";
export { displayWidth } from "./width.js";
