/**
 * Worker-thread entry of `createChartRenderer`: rasterises SVG documents sent by the main
 * thread. Only the SVG crosses the thread boundary because `ChartSpec.formatPrice` is a
 * function and cannot be cloned; building the SVG is cheap, rasterising is the slow part.
 */
import { parentPort } from "node:worker_threads";
import { rasterizeSvg } from "./rasterize.js";

/** Main thread → worker. */
export interface RenderRequest {
  id: number;
  svg: string;
}

/** Worker → main thread: the PNG, or why there is none. */
export type RenderResponse = { id: number; png: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error("render-worker runs as a worker thread: use createChartRenderer() instead of importing it");

port.on("message", (request: RenderRequest) => {
  let response: RenderResponse;
  try {
    response = { id: request.id, png: rasterizeSvg(request.svg) };
  } catch (e) {
    response = { id: request.id, error: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(response, "png" in response ? [response.png.buffer as ArrayBuffer] : []);
});
