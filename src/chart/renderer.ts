import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { threadId, Worker } from "node:worker_threads";
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
 * The built dist/chart/*.js runs its worker under plain node. Under vitest/tsx this module runs
 * from its .ts source and so must the worker, and Node 20 ignores `--import` loaders in a
 * worker's execArgv (nodejs/node#47747). Registering tsx inside each worker started a loader
 * thread of its own and passed every module through it: about 0.7 CPU-s a worker, some 20 of
 * the test suite's 236 CPU-s in a profile. Instead the worker's few modules are bundled once a
 * process with esbuild (a dev dependency), packages left to Node, into node_modules/.cache,
 * where those packages resolve as they do from src/, and every worker starts from that file.
 */
let sourceWorkerFile: URL | undefined;

function sourceWorker(): URL {
  if (sourceWorkerFile !== undefined) return sourceWorkerFile;
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const built = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL("./render-worker.ts", import.meta.url))],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    write: false,
  });
  const code = built.outputFiles[0]?.text;
  if (code === undefined) throw new Error("esbuild wrote no chart worker bundle");
  const dir = fileURLToPath(new URL("../../node_modules/.cache/chainpulse/", import.meta.url));
  const file = join(dir, `render-worker-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Another process may write the same file at once: each renames its own copy into place.
    const scratch = `${file}.${process.pid}.${threadId}`;
    writeFileSync(scratch, code);
    renameSync(scratch, file);
  }
  sourceWorkerFile = pathToFileURL(file);
  return sourceWorkerFile;
}

function startWorker(): Worker {
  return new Worker(import.meta.url.endsWith(".ts") ? sourceWorker() : new URL("./render-worker.js", import.meta.url));
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
