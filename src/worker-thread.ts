import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread whose entry is `base` (a path without extension) beside the module at
 * `callerUrl`: built, the entry is plain JavaScript; from source (tests, `npm run dev`) it is
 * TypeScript, which a worker loads only through tsx's loader, registered by tsx-bootstrap.mjs.
 */
export function startWorker(callerUrl: string, base: string, options: WorkerOptions): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`${base}.js`, callerUrl), options);
  return new Worker(new URL('./tsx-bootstrap.mjs', import.meta.url), { ...options, argv: [new URL(`${base}.ts`, callerUrl).href] });
}
