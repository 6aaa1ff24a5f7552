/** Days of compute-unit spend kept: the pace reads today's only; a week is there to look back on. */
export const KEEP_UNIT_DAYS = 7;
