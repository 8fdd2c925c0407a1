import { Worker, type WorkerOptions } from 'node:worker_threads';
import { bundleFromSource } from './worker-bundle.js';

/** The modules that run as worker threads: paths from src/ (dist/ once built), without extension. */
export type WorkerEntry = 'exchange/core-thread/core-worker' | 'store/sqlite/checkpoint-worker' | 'store/journal-read-worker';

/**
 * Starts the worker thread of `entry`: built, the entry is plain JavaScript beside this module;
 * from source (tests, `npm run dev`) it is TypeScript, bundled into one module first.
 */
export function startWorker(entry: WorkerEntry, options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL(`./${entry}.js`, import.meta.url), options);
  return new Worker(bundleFromSource(new URL(`./${entry}.ts`, import.meta.url)), options);
}
