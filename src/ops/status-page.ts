/**
 * The operator's page as HTML: one document, its style inline, its charts inline SVG, nothing
 * fetched from elsewhere, and a meta refresh instead of a script. Every value that came from
 * outside (chat ids, reasons, check details, lease names) is escaped.
 */
import { DAY_MS } from "../market/quota-ledger.js";
import { esc, hhmm, num } from "./html.js";
import { MIN_PACE_MS, type DeliveryView, type QuotaView, type StatusModel } from "./status-model.js";
import { stackedAreaSvg, stackedBarsSvg, type RefLine } from "./svg-chart.js";

export const REFRESH_SECONDS = 15;
const HOUR_MS = 3_600_000;

const LANE_COLORS: Readonly<Record<string, string>> = { people: "#2563eb", alerts: "#dc2626", feed: "#9333ea", digest: "#16a34a", refresh: "#9ca3af" };
const FRESHNESS_COLORS: Readonly<Record<string, string>> = { fresh: "#16a34a", stale: "#f59e0b", busy: "#6366f1", failed: "#dc2626" };
/** Headings of the delivery kinds the page knows; a kind it does not know is shown by its metric's name. */
const KIND_TITLES = new Map([
  ["digest", "Digests"],
  ["alert", "Alerts"],
  ["buy", "Buy feed posts"],
  ["buy_feed", "Buy feeds"],
  ["buyfeed", "Buy feeds"],
  ["launch", "Launches"],
]);

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}
header{background:#0f172a;color:#f8fafc;padding:12px 20px;display:flex;gap:16px;align-items:baseline;flex-wrap:wrap}
header h1{font-size:18px;margin:0}main{padding:8px 20px 24px;display:grid;gap:16px;align-items:start;grid-template-columns:repeat(auto-fit,minmax(min(560px,100%),1fr))}
header .muted{color:#94a3b8}
section{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px;min-width:0;overflow-x:auto}h2{font-size:16px;margin:0 0 8px}h3{font-size:14px;margin:12px 0 4px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 8px 3px 0;border-bottom:1px solid #f1f5f9;vertical-align:top;overflow-wrap:anywhere}
td.n,th.n{text-align:right}.ok{color:#15803d}.bad{color:#b91c1c;font-weight:600}.muted{color:#64748b}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600}.badge.ok{background:#dcfce7}.badge.bad{background:#fee2e2}
.chart{width:100%;height:auto}.chart text{font-size:11px;fill:#475569}.chart .axis{stroke:#94a3b8}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px}code{font-size:13px}`;

function table(head: readonly string[], rows: readonly string[][], numeric: readonly number[] = []): string {
  const cell = (tag: string, i: number, v: string) => `<${tag}${numeric.includes(i) ? ' class="n"' : ""}>${v}</${tag}>`;
  return `<table><thead><tr>${head.map((h, i) => cell("th", i, esc(h))).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((v, i) => cell("td", i, v)).join("")}</tr>`).join("")}</tbody></table>`;
}

const swatch = (color: string) => `<span class="swatch" style="background:${esc(color)}"></span>`;

function ago(ms: number): string {
  if (ms < 90_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 2 * HOUR_MS) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / HOUR_MS).toFixed(1)} h`;
}

function readinessSection(m: StatusModel): string {
  const rows = Object.entries(m.readiness.checks).map(([name, c]) => [
    esc(name),
    c.ok ? '<span class="ok">ok</span>' : '<span class="bad">not ready</span>',
    c.detail === undefined ? "" : esc(c.detail),
  ]);
  return `<section id="readiness"><h2>Readiness <span class="badge ${m.readiness.ready ? "ok" : "bad"}">${m.readiness.ready ? "ready" : "not ready"}</span></h2>${table(["check", "state", "detail"], rows)}</section>`;
}

function quotaChart(q: QuotaView, at: number): string {
  const x1 = q.dayStart + DAY_MS;
  const refs: RefLine[] = [];
  if (q.daily !== undefined) {
    refs.push({ label: `allowance ${num(q.daily)} units`, color: "#0f172a", points: [[q.dayStart, q.daily], [x1, q.daily]] });
    refs.push({ label: "an even pace over the day", color: "#64748b", points: [[q.dayStart, 0], [x1, q.daily]], dashed: true });
  }
  if (q.pace !== undefined && q.spent !== undefined) {
    const end = q.runsOut !== undefined && "at" in q.runsOut ? q.runsOut.at : x1;
    refs.push({ label: "at the pace of the last hour", color: "#dc2626", points: [[at, q.spent], [end, q.spent + (q.pace.perHour * (end - at)) / HOUR_MS]], dashed: true });
  }
  const top = Math.max(q.daily ?? 0, q.spent ?? 0, q.byLane.reduce((s, l) => s + l.units, 0));
  const frame = {
    title: `Compute units spent today by lane${q.daily === undefined ? "" : ` against the allowance of ${num(q.daily)}`}`,
    x0: q.dayStart,
    x1,
    yMax: top > 0 ? top * 1.05 : 1,
    xLabels: [0, 6, 12, 18, 24].map((h) => ({ at: q.dayStart + h * HOUR_MS, text: `${String(h % 24).padStart(2, "0")}:00` })),
  };
  return stackedAreaSvg(frame, q.xs, q.layers.map((l) => ({ label: l.lane, color: LANE_COLORS[l.lane] ?? "#334155", values: l.values })), refs);
}

function quotaSection(m: StatusModel): string {
  const q = m.quota;
  const counted = q.byLane.reduce((s, l) => s + l.units, 0);
  const lines: string[] = [];
  lines.push(`Market pace: ${esc(String(m.rps))} requests/s. ${q.daily === undefined ? "No daily allowance is set (<code>MARKET_API_DAILY_UNITS</code>): the spend is counted, not paced." : `Allowance: <b>${num(q.daily)}</b> compute units a day (UTC).`}`);
  if (q.spent !== undefined) {
    lines.push(`Spent today: <b id="spent-today">${num(q.spent)}</b>${q.daily === undefined ? "" : ` of ${num(q.daily)} (${((q.spent / q.daily) * 100).toFixed(1)} %)`} units.`);
  }
  if (q.pace !== undefined) lines.push(`Pace: ${num(q.pace.perHour)} units an hour, over the last ${ago(q.pace.overMs)}.`);
  else if (q.spent !== undefined) lines.push(`Pace: known once ${m.shared ? "the workers have" : "this worker has"} counted for ${MIN_PACE_MS / 60_000} minutes.`);
  if (q.runsOut !== undefined) {
    lines.push(
      "at" in q.runsOut
        ? `<span class="bad">At this pace the allowance runs out at ${hhmm(q.runsOut.at)} UTC</span>, before the reset at 00:00 UTC.`
        : `<span class="ok">At this pace the allowance lasts until the reset at 00:00 UTC.</span>`,
    );
  }
  const legend = table(
    ["lane", `units since ${hhmm(q.countedSince)} UTC`],
    [...q.byLane.map((l) => [`${swatch(LANE_COLORS[l.lane] ?? "#334155")}${esc(l.lane)}`, `<span data-lane-units="${esc(l.lane)}">${num(l.units)}</span>`]), ["all lanes", `<b id="lane-units-total">${num(counted)}</b>`]],
    [1],
  );
  return `<section id="quota"><h2>Compute units today</h2><p>${lines.join("<br>")}</p>${quotaChart(q, m.at)}${legend}<p class="muted">By lane as ${m.shared ? "every worker" : "this worker"} counted them; the day's total is the shared ledger's.</p></section>`;
}

function answersSection(m: StatusModel): string {
  const a = m.answers;
  const frame = {
    title: "Answers per minute by freshness, last hour",
    x0: m.at - HOUR_MS,
    x1: m.at,
    yMax: Math.max(1, ...a.xs.map((_, i) => a.layers.reduce((s, l) => s + (l.values[i] ?? 0), 0))),
    xLabels: [60, 45, 30, 15, 0].map((min) => ({ at: m.at - min * 60_000, text: min === 0 ? "now" : `−${min} min` })),
  };
  const chart = stackedBarsSvg(frame, a.xs, a.layers.map((l) => ({ label: l.freshness, color: FRESHNESS_COLORS[l.freshness] ?? "#334155", values: l.values })), 60_000);
  const legend = table(
    ["freshness", `answers since ${hhmm(a.since)} UTC`],
    a.layers.map((l) => [`${swatch(FRESHNESS_COLORS[l.freshness] ?? "#334155")}${esc(l.freshness)}`, num(a.lastHour.get(l.freshness) ?? 0)]),
    [1],
  );
  return `<section id="answers"><h2>Answers by freshness, last hour</h2>${chart}${legend}</section>`;
}

function lanesSection(m: StatusModel): string {
  const rows = m.lanes.map((l) => [esc(l.lane), num(l.depth), num(l.calls), l.meanWaitMs === undefined ? "—" : `${num(l.meanWaitMs)} ms`, num(l.units)]);
  return `<section id="lanes"><h2>Market lanes</h2>${table(["lane", "waiting now", "calls", "mean wait", "units"], rows, [1, 2, 3, 4])}<p class="muted">Calls, waits and units since ${hhmm(m.lanesSince)} UTC${m.shared ? ", every worker's (waiting now: the workers seen in the last 2 minutes)" : ""}.</p></section>`;
}

function outcomes(d: DeliveryView, m: StatusModel): string {
  const names = [...new Set([...d.sinceStart.keys(), ...Object.keys(d.rows ?? {})])].sort();
  if (names.length === 0) return '<p class="muted">No deliveries yet.</p>';
  const rows = names.map((o) => [esc(o), num(d.lastHour.get(o) ?? 0), num(d.sinceStart.get(o) ?? 0), d.rows === undefined ? "—" : num(d.rows[o] ?? 0)]);
  return table(["outcome", "last hour", m.shared ? `since ${hhmm(m.countsFrom)} UTC` : "since start", "rows kept"], rows, [1, 2, 3]);
}

function deliverySection(d: DeliveryView, m: StatusModel): string {
  const title = KIND_TITLES.get(d.kind) ?? d.kind;
  const last = d.last === undefined ? "No platform answer since this worker started." : `Last platform answer ${ago(m.at - d.last.at)} ago: ${esc(d.last.outcome)}.`;
  const failing =
    d.failing.length === 0
      ? '<p class="ok">No chat is failing.</p>'
      : table(
          ["platform", "chat id", "outcome", "reason", "failures", "last"],
          d.failing.map((c) => [esc(c.platform), `<code>${esc(c.chatId)}</code>`, `<span class="bad">${esc(c.outcome)}</span>`, esc(c.reason), num(c.count), `${hhmm(c.lastAt)} UTC`]),
          [4],
        );
  return `<section id="deliveries-${esc(d.kind)}" class="deliveries"><h2>${esc(title)}</h2><p>${last}</p>${outcomes(d, m)}<h3>Chats whose deliveries fail</h3>${failing}</section>`;
}

function workersSection(m: StatusModel): string {
  const own = m.readiness.checks.worker?.detail;
  const stored = m.leases;
  const leases =
    stored === undefined
      ? m.storeUnreachable === true
        ? '<p class="bad">The database cannot be reached: the leases, the stored delivery counts and the other workers\' figures since the outage began are left out until it answers.</p>'
        : ""
      : stored.rows.length === 0
        ? '<p class="muted">No lease is held.</p>'
        : table(
            ["lease", "holder", "expires"],
            stored.rows.map((l) => [
              esc(l.name),
              // By the exact holder: an earlier process with the same WORKER_ID, or another running one, is not this worker.
              `${esc(l.holder)}${l.holder === stored.holder ? ' <span class="muted">(this worker)</span>' : ""}`,
              l.expiresAt > m.at ? `in ${ago(l.expiresAt - m.at)}` : `<span class="muted">expired ${ago(m.at - l.expiresAt)} ago</span>`,
            ]),
          );
  return `<section id="workers"><h2>Workers and leases</h2><p>This worker: <b>${esc(m.worker)}</b>${own === undefined ? "" : ` — ${esc(own)}`}</p>${leases}</section>`;
}

export function statusPage(m: StatusModel): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${REFRESH_SECONDS}">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>chainpulse — operator's page</title><style>${STYLE}</style></head>
<body><header><h1>chainpulse</h1><span>version ${esc(m.version)}</span><span>worker ${esc(m.worker)}</span><span>up ${ago(m.at - m.startedAt)}</span><span>${esc(new Date(m.at).toISOString().slice(0, 19).replace("T", " "))} UTC</span><span class="muted">refreshes every ${REFRESH_SECONDS} s</span><form method="post" action="/logout"><button type="submit">Log out</button></form></header>
<main>${readinessSection(m)}${quotaSection(m)}${answersSection(m)}${lanesSection(m)}${m.deliveries.map((d) => deliverySection(d, m)).join("")}${workersSection(m)}</main></body></html>`;
}
