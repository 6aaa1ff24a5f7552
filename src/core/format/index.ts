/** Display formatting for replies: numbers from decimal strings, times, and strangers' text. */
export { DASH, formatAmount, formatCount, formatExactAmount, formatExactUsd, formatPrice, formatPriceBeside, formatUsd, formatUsdWhole } from "./number.js";
export { formatPercent, formatRatio } from "./percent.js";
export { formatAge, formatAsOf, formatSince, utcMinute } from "./time.js";
export { isInvisible, safeHttpUrl, stripInvisible } from "./clean.js";
export { cleanText, shortAddress } from "./text.js";
