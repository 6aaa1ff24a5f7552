/** Why a render through `createChartRenderer` did not produce a picture. */
export type ChartErrorKind =
  | "busy" // the queue is full: tell the user to try again in a moment
  | "closed" // the renderer was closed (shutting down)
  | "failed"; // the rasteriser or its worker failed; the log has the detail

const MESSAGES: Record<ChartErrorKind, string> = {
  busy: "charts are busy, try again in a moment",
  closed: "charts are not available right now",
  failed: "the chart could not be drawn",
};

/** A render that did not happen; `message` is one sentence fit for the user. */
export class ChartError extends Error {
  override readonly name = "ChartError";
  readonly kind: ChartErrorKind;
  /** Whether asking again later may help. */
  readonly retryable: boolean;

  constructor(kind: ChartErrorKind, options?: { cause?: unknown }) {
    super(MESSAGES[kind], options);
    this.kind = kind;
    this.retryable = kind !== "closed";
  }
}

export function isChartError(e: unknown): e is ChartError {
  return e instanceof ChartError;
}
