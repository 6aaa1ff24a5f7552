/** Labels for the axes when the caller passes no formatter of its own. */

const SUBSCRIPT_DIGITS = "₀₁₂₃₄₅₆₇₈₉";

function subscript(n: number): string {
  return String(n).replace(/\d/g, (d) => SUBSCRIPT_DIGITS[Number(d)] ?? d);
}

function compact(value: number, digits: number): string | undefined {
  const units: [number, string][] = [
    [1e12, "T"],
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (value >= size) return `${Number((value / size).toPrecision(digits))}${suffix}`;
  }
  return undefined;
}

/** How `formatPriceDefault` rounds. */
export interface PriceFormatOptions {
  /** Significant digits, 1–12; default 4. */
  significant?: number;
  /**
   * Exactly this many decimals for prices below 1e6 (`$1.50`, `$0.20`, `$0.0₅50`), so axis
   * labels line up; the subscripted zeros count as decimals. Larger prices still use
   * `significant`. Default: unset.
   */
  decimals?: number;
  /**
   * With `decimals`: write this many leading zeros (subscripted from four on) whatever the
   * price, padding its digits, so every label of one axis reads in one notation. Default: the
   * price's own.
   */
  zeros?: number;
}

/**
 * Formats a price in dollars: `$12,345`, `$1.234M`, `$0.001234`, and below 0.0001 the
 * tiny-price notation `$0.0₅1234` (five zeros after the point). Beyond 1e15 falls back to
 * exponent notation.
 */
export function formatPriceDefault(price: number, options: PriceFormatOptions = {}): string {
  const significant = Math.min(Math.max(options.significant ?? 4, 1), 12);
  if (!Number.isFinite(price)) return "–";
  const sign = price < 0 ? "-" : "";
  const decimals = options.decimals;
  if (decimals !== undefined && Math.abs(price) < 1e6) {
    const fixed = Math.min(Math.max(decimals, 0), 20);
    const digits = Math.round(Math.abs(price) * 10 ** fixed);
    const own = fixed - String(digits).length;
    const zeros = options.zeros !== undefined && options.zeros <= own ? options.zeros : own;
    if (digits > 0 && zeros >= 4) return `${sign}$0.0${subscript(zeros)}${String(digits).padStart(fixed - zeros, "0")}`;
    const text = Math.abs(price).toLocaleString("en-US", { minimumFractionDigits: fixed, maximumFractionDigits: fixed });
    return `${sign}$${text}`;
  }
  if (price === 0) return "$0";
  const raw = Math.abs(price);
  // Below 1, rounded first so that 0.9999999 reads as $1 and takes the path of 1.
  const abs = raw < 1 ? Number(raw.toPrecision(significant)) : raw;
  if (abs >= 1e15) return `${sign}$${abs.toExponential(2)}`;
  if (abs >= 1e6) return `${sign}$${compact(abs, significant) ?? ""}`;
  if (abs >= 1) {
    const maximumFractionDigits = Math.min(Math.max(0, significant - 1 - Math.floor(Math.log10(abs))), 10);
    return `${sign}$${abs.toLocaleString("en-US", { maximumFractionDigits })}`;
  }
  // From the exponent form so rounding that carries into a new digit (0.00099999) counts right.
  const [mantissa = "0", exponent = "0"] = abs.toExponential(significant - 1).split("e");
  const zeros = -Number(exponent) - 1;
  const digits = mantissa.replace(".", "").replace(/0+$/, "") || "0";
  if (zeros < 4) return `${sign}$0.${"0".repeat(zeros)}${digits}`;
  return `${sign}$0.0${subscript(zeros)}${digits}`;
}

/** Formats a traded volume compactly: `950`, `12.3K`, `4.56M`; no currency sign. */
export function formatVolume(volume: number): string {
  if (!Number.isFinite(volume) || volume <= 0) return "0";
  if (volume >= 1e15) return volume.toExponential(1);
  return compact(volume, 3) ?? String(Number(volume.toPrecision(3)));
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** How a time tick reads: a clock time, a day, a month or a year (all UTC). */
export type TimeLabelKind = "clock" | "day" | "month" | "year";

/** Formats unix seconds as `14:05`, `Nov 22`, `Nov 2026` or `2026`, in UTC. */
export function formatTime(seconds: number, kind: TimeLabelKind): string {
  const d = new Date(seconds * 1000);
  const month = MONTHS[d.getUTCMonth()] ?? "";
  switch (kind) {
    case "clock":
      return `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
    case "day":
      return `${month} ${d.getUTCDate()}`;
    case "month":
      return `${month} ${d.getUTCFullYear()}`;
    case "year":
      return String(d.getUTCFullYear());
  }
}
