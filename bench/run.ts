/**
 * Runs the benchmarks of bench/ one after the other, each module's `main()`:
 *
 *   npm run bench                  every benchmark that exists
 *   npm run bench -- engine        only the named ones (engine, journal, replay, http, payments, webhooks)
 */

import { existsSync } from 'node:fs';

const BENCHMARKS = ['engine', 'journal', 'replay', 'http', 'payments', 'webhooks'] as const;
type BenchmarkName = (typeof BENCHMARKS)[number];

function isBenchmarkName(name: string): name is BenchmarkName {
  return (BENCHMARKS as readonly string[]).includes(name);
}

function moduleUrl(name: BenchmarkName): URL {
  return new URL(`./${name}.ts`, import.meta.url);
}

function selected(args: readonly string[]): BenchmarkName[] {
  if (args.length === 0) return BENCHMARKS.filter((name) => existsSync(moduleUrl(name)));
  const unknown = args.filter((name) => !isBenchmarkName(name));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.join(', ')}`);
  const names = args.filter(isBenchmarkName);
  const missing = names.filter((name) => !existsSync(moduleUrl(name)));
  if (missing.length > 0) throw new Error(`benchmark not written yet: ${missing.join(', ')}`);
  return names;
}

async function run(name: BenchmarkName): Promise<void> {
  const loaded: unknown = await import(moduleUrl(name).href);
  const main = (loaded as { main?: unknown }).main;
  if (typeof main !== 'function') throw new Error(`bench/${name}.ts exports no main()`);
  console.log(`\n== ${name}`);
  const started = process.hrtime.bigint();
  await main();
  console.log(`== ${name} done in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
}

for (const name of selected(process.argv.slice(2))) await run(name);
