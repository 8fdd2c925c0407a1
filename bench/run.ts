/**
 * Runs the benchmarks of bench/ one after the other, each module's `main()`:
 *
 *   npm run bench                  every benchmark that exists
 *   npm run bench -- engine        only the named ones (engine, journal, replay, http, payments, webhooks, ws, cluster, web)
 *   npm run bench -- --quick       each one briefly
 *   npm run bench -- --help        the names and the environment knobs
 */

import { existsSync } from 'node:fs';
import { BENCHMARK_NAMES, isBenchmarkName, parseBenchArgs, quickEnv, usage, UsageError, type BenchmarkName } from './options.js';

function moduleUrl(name: BenchmarkName): URL {
  return new URL(`./${name}.ts`, import.meta.url);
}

function selected(args: readonly string[]): BenchmarkName[] {
  if (args.length === 0) return BENCHMARK_NAMES.filter((name) => existsSync(moduleUrl(name)));
  const unknown = args.filter((name) => !isBenchmarkName(name));
  if (unknown.length > 0) throw new UsageError(`unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARK_NAMES.join(', ')}`);
  const names = args.filter(isBenchmarkName);
  const missing = names.filter((name) => !existsSync(moduleUrl(name)));
  if (missing.length > 0) throw new UsageError(`benchmark not written yet: ${missing.join(', ')}`);
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

let names: BenchmarkName[] = [];
try {
  const args = parseBenchArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(usage());
    process.exit(0);
  }
  names = selected(args.names);
  if (args.quick) {
    const quick = quickEnv(process.env);
    Object.assign(process.env, quick);
    console.log(`quick mode: ${Object.entries(quick).map(([name, value]) => `${name}=${value}`).join(' ') || 'every knob already set'}`);
  }
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n\n${usage()}`);
  process.exit(1);
}
for (const name of names) await run(name);
