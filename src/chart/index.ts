/** Candlestick charts: the picture (SVG, PNG), the off-thread renderer and the image cache. */
export { ChartImageCache, chartCacheKey, type ChartImageCacheOptions } from "./cache.js";
export { ChartError, isChartError, type ChartErrorKind } from "./errors.js";
export { formatPriceDefault, type PriceFormatOptions } from "./format.js";
export { CHART_MIN_SLOTS } from "./layout.js";
export { CHART_FONT_FILES, rasterizeSvg, renderChartPng } from "./rasterize.js";
export { createChartRenderer, type ChartRendererOptions } from "./renderer.js";
export { renderChartSvg } from "./svg.js";
export { renderPnlSvg, type PnlCardSpec } from "./pnl-card.js";
export type { Candle, ChartRenderer, ChartSpec } from "./types.js";
