/** Colours and geometry of the chart picture; exported so tests can look where things are. */

/** Colours: a dark theme that reads on both Telegram's and Discord's light and dark modes. */
export const CHART_THEME = {
  background: "#131722",
  grid: "#232834",
  text: "#d1d4dc",
  muted: "#8b8f9a",
  up: "#26a69a",
  down: "#ef5350",
  /** Volume bars reuse the candle colours at this opacity so they stay behind the price. */
  volumeOpacity: 0.5,
  noteBorder: "#3a4050",
} as const;

/** Pixel geometry of the 1200×675 picture. */
export const CHART_LAYOUT = {
  width: 1200,
  height: 675,
  /** Title and subtitle baselines, left-aligned at `left`. */
  titleY: 46,
  subtitleY: 76,
  /** Notes such as "log scale" sit at the top right, right-aligned at `notesRight`. */
  notesRight: 1172,
  notesY: 46,
  /** The candle area; the price axis labels sit right of `right`. */
  left: 28,
  right: 1096,
  priceTop: 104,
  priceBottom: 500,
  volumeTop: 516,
  volumeBottom: 612,
  timeLabelY: 640,
  /** Inter first; resvg takes each glyph Inter lacks (Chinese) from the bundled Noto Sans SC. */
  fontFamily: "Inter, 'Noto Sans S Chinese'",
  fontSize: { title: 26, subtitle: 17, axis: 14, note: 15, empty: 26 },
  /** Longest title and subtitle in code points; longer ones end with "…". */
  maxTitle: 48,
  maxSubtitle: 84,
} as const;
