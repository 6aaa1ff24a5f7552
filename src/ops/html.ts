/** Text into HTML, for element content and quoted attributes alike. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole number with thousands separators, as the page shows counts and units. */
export function num(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** An epoch ms as HH:MM UTC. */
export function hhmm(at: number): string {
  return new Date(at).toISOString().slice(11, 16);
}
