/** Display formatting for replies: numbers from decimal strings, times, and strangers' text. */
export { DASH, MINUS, formatAmount, formatCount, formatExactAmount, formatExactUsd, formatPrice, formatPriceBeside, formatUsd, formatUsdWhole, type UsdOptions } from "./number.js";
export { formatPercent, formatRatio, type PercentOptions } from "./percent.js";
export { formatAge, formatAsOf, formatSince, utcMinute, type AsOfOptions } from "./time.js";
export { isInvisible, safeHttpUrl, stripInvisible } from "./clean.js";
export { cleanText, shortAddress } from "./text.js";
