/** The sum of the series of `name` in /metrics text whose labels include `labels`, or 0. */
export function metric(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (want.every((w) => line.includes(w))) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}
