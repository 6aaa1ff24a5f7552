/** Candlestick charts: the picture (SVG, PNG), the off-thread renderer and the image cache. */
export { chartCacheKey, type ChartImageCacheOptions } from "./cache.js";
export { ChartError, isChartError } from "./errors.js";
export { formatPriceDefault } from "./format.js";
export { CHART_MIN_SLOTS } from "./layout.js";
export { rasterizeSvg } from "./rasterize.js";
export { createChartRenderer } from "./renderer.js";
export { renderChartSvg } from "./svg.js";
export { renderPnlSvg, type PnlCardSpec } from "./pnl-card.js";
export type { Candle, ChartRenderer, ChartSpec } from "./types.js";
