import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import { ChartImageCache, type ChartImageCacheOptions } from "./cache.js";
import { ChartError } from "./errors.js";
import type { RenderRequest, RenderResponse } from "./render-worker.js";
import { renderPnlSvg, type PnlCardSpec } from "./pnl-card.js";
import { renderChartSvg } from "./svg.js";
import type { ChartRenderer, ChartSpec } from "./types.js";

/** Options of `createChartRenderer`. */
export interface ChartRendererOptions {
  /** Worker threads rasterising in parallel; default 1. */
  workers?: number;
  /**
   * Renders that may wait for a free worker, besides the one each worker is drawing;
   * default 32. When full, `render` rejects with a `ChartError` of kind "busy".
   */
  maxQueue?: number;
  /** Where worker failures are reported; default: nowhere. */
  logger?: Pick<Logger, "error">;
  /** Bounds of the pictures kept for reuse (a refresh, or one chart asked in several chats). */
  cache?: ChartImageCacheOptions;
}

interface Job {
  id: number;
  svg: string;
  resolve: (png: Uint8Array) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
}

/**
 * The built dist/chart/*.js runs its worker under plain node. Under vitest/tsx this module
 * runs from its .ts source and so must the worker: Node 20 ignores `--import` loaders in a
 * worker's execArgv (nodejs/node#47747), so a two-line bootstrap registers tsx (a dev
 * dependency) inside the worker first. createRequire resolves tsx's "require" build of
 * `tsx/esm/api`; its ESM twin sits beside it as .mjs and is the one whose register() works.
 */
function startWorker(): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./render-worker.js", import.meta.url));
  const api = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const entry = new URL("./render-worker.ts", import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/**
 * Draws charts in worker threads so a render never blocks other chats: the SVG is built on
 * the calling thread (it needs `spec.formatPrice`), rasterised in a worker, and the PNG
 * bytes equal `renderChartPng(spec)`. The pictures of recent specs are kept (bounded) and
 * served again without a worker. Workers start on first use, never keep the process
 * alive while idle, and are replaced if one dies. `close()` terminates them and rejects
 * waiting renders.
 */
export function createChartRenderer(options: ChartRendererOptions = {}): ChartRenderer {
  const maxWorkers = Math.max(1, Math.floor(options.workers ?? 1));
  const maxQueue = Math.max(0, Math.floor(options.maxQueue ?? 32));
  const log = options.logger;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;
  const pictures = new ChartImageCache(options.cache);

  function spawn(): Slot {
    const worker = startWorker();
    const slot: Slot = { worker };
    worker.on("message", (response: RenderResponse) => {
      const job = slot.job;
      if (!job || job.id !== response.id) return;
      slot.job = undefined;
      worker.unref();
      if ("png" in response) job.resolve(response.png);
      else {
        log?.error({ err: response.error }, "chart render failed");
        job.reject(new ChartError("failed", { cause: new Error(response.error) }));
      }
      pump();
    });
    worker.on("error", (err) => log?.error({ err }, "chart worker crashed"));
    worker.on("exit", (code) => {
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      const job = slot.job;
      slot.job = undefined;
      if (job) job.reject(new ChartError(closed ? "closed" : "failed", { cause: new Error(`worker exited with code ${code}`) }));
      if (!closed) pump();
    });
    slots.push(slot);
    return slot;
  }

  function pump(): void {
    while (queue.length > 0) {
      const slot = slots.find((s) => !s.job) ?? (slots.length < maxWorkers ? spawn() : undefined);
      const job = slot && queue.shift();
      if (!slot || !job) return;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, svg: job.svg } satisfies RenderRequest);
    }
  }

  function draw(svg: string): Promise<Uint8Array> {
    if (closed) return Promise.reject(new ChartError("closed"));
    return pictures.getOrRender(svg, () => {
      const busy = slots.filter((s) => s.job).length;
      if (busy >= maxWorkers && queue.length >= maxQueue) return Promise.reject(new ChartError("busy"));
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ id: nextId++, svg, resolve, reject });
        pump();
      });
    });
  }

  return {
    render(spec: ChartSpec): Promise<Uint8Array> {
      return closed ? Promise.reject(new ChartError("closed")) : draw(renderChartSvg(spec));
    },

    renderCard(spec: PnlCardSpec): Promise<Uint8Array> {
      return closed ? Promise.reject(new ChartError("closed")) : draw(renderPnlSvg(spec));
    },

    async close(): Promise<void> {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new ChartError("closed"));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
