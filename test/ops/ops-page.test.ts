import { afterEach, describe, expect, it } from "vitest";
import pino from "pino";
import { startOpsServer, type OpsServer } from "../../src/ops/http-server.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { createOpsPage, OFF_TEXT, type OpsPage } from "../../src/ops/ops-page.js";

const TOKEN = "a-token-of-twenty-chars";
let server: OpsServer | undefined;
let page: OpsPage | undefined;
afterEach(async () => {
  await server?.close();
  page?.close();
  server = page = undefined;
});

async function start(token: string | undefined, secrets: string[] = [], now: () => number = Date.now, onLoginsRefused?: (count: number) => void) {
  const metrics = createMetrics({ processMetrics: false, worker: "w<1>" });
  page = createOpsPage({ token, secrets, registry: metrics.registry, worker: "w<1>", rps: 5, now, ...(onLoginsRefused === undefined ? {} : { onLoginsRefused }) });
  server = await startOpsServer({
    host: "127.0.0.1",
    port: 0,
    metrics,
    checks: [{ name: "store", check: async () => ({ ok: false, detail: `cannot reach <b>db</b> with ${secrets[0] ?? "nothing"}` }) }],
    logger: pino({ level: "silent" }),
    page,
  });
  return `http://127.0.0.1:${server.port}`;
}

describe("the operator's page route", () => {
  it("is off without OPS_TOKEN: / says how to turn it on, /login is not there, /metrics is as before", async () => {
    const base = await start(undefined);
    const off = await fetch(base);
    expect(off.status).toBe(200);
    expect(await off.text()).toBe(OFF_TEXT);
    expect(OFF_TEXT).toContain("Set OPS_TOKEN");
    expect((await fetch(`${base}/login`, { method: "POST", body: "token=x" })).status).toBe(404);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
  });

  it("escapes what checks and names carry, and shows no secret even when a check's detail holds one", async () => {
    const secret = "market-key-secret-123";
    const base = await start(TOKEN, [secret]);
    const res = await fetch(base, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain("cannot reach &#60;b&#62;db&#60;/b&#62; with ***");
    expect(html).toContain("worker w&#60;1&#62;");
    expect(html).not.toContain(secret);
    expect(html).not.toContain("<b>db");
    // Before the bot is built the page still shows readiness.
    expect(html).toContain("not ready");
  });

  it("refuses a login form that is too long or wrong, and sends a GET of /login to the page", async () => {
    const base = await start(TOKEN);
    expect((await fetch(`${base}/login`, { method: "POST", body: `token=${"x".repeat(5000)}` })).status).toBe(401);
    expect((await fetch(`${base}/login`, { method: "POST", body: "token=wrong" })).status).toBe(401);
    const get = await fetch(`${base}/login`, { redirect: "manual" });
    expect([get.status, get.headers.get("location")]).toEqual([303, "/"]);
    expect((await fetch(base, { headers: { authorization: `Basic ${TOKEN}` } })).status).toBe(401);
  });

  it("reports refused logins at most once a minute, with how many there were", async () => {
    let clock = Date.UTC(2026, 10, 29, 12, 0);
    const reports: number[] = [];
    const base = await start(TOKEN, [], () => clock, (count) => reports.push(count));
    const wrong = () => fetch(`${base}/login`, { method: "POST", body: "token=guess" });
    for (let i = 0; i < 50; i++) expect((await wrong()).status).toBe(401);
    expect(reports).toEqual([1]);
    clock += 60_000;
    await wrong();
    expect(reports).toEqual([1, 50]);
    const right = await fetch(`${base}/login`, { method: "POST", body: new URLSearchParams({ token: TOKEN }), redirect: "manual" });
    expect(right.status).toBe(303);
    expect(reports).toEqual([1, 50]);
  });

  it("ends a session at its expiry on the server, and at a log out in the browser", async () => {
    let clock = Date.UTC(2026, 10, 29, 12, 0);
    const base = await start(TOKEN, [], () => clock);
    const login = await fetch(`${base}/login`, { method: "POST", body: new URLSearchParams({ token: TOKEN }), redirect: "manual" });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const page = await fetch(base, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/logout"');
    const out = await fetch(`${base}/logout`, { method: "POST", headers: { cookie }, redirect: "manual" });
    expect([out.status, out.headers.get("location")]).toEqual([303, "/"]);
    expect(out.headers.get("set-cookie")).toMatch(/^chainpulse_ops=; .*Max-Age=0/);
    // A copy of the cookie kept past its day no longer opens the page.
    clock += 86_400_000 - 1_000;
    expect((await fetch(base, { headers: { cookie } })).status).toBe(200);
    clock += 2_000;
    expect((await fetch(base, { headers: { cookie } })).status).toBe(401);
    // Nor does one whose expiry was changed by hand.
    const [name, value = ""] = cookie.split("=");
    const [, mac] = value.split(".");
    expect((await fetch(base, { headers: { cookie: `${name}=${Math.floor(clock / 1000) + 3600}.${mac}` } })).status).toBe(401);
  });
});
