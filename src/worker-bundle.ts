/**
 * A worker's entry bundled from source into one ES module (tests, `npm run dev`): a worker thread
 * cannot inherit the parent's TypeScript loader, and registering tsx's in each worker costs about
 * 0.7 s of CPU per start (a hooks thread and an esbuild service), paid by every test server's WAL
 * checkpointer. esbuild bundles an entry in tens of milliseconds, once per process.
 *
 * Never reached once built: dist/ holds JavaScript and starts its workers directly.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Esbuild = typeof import('esbuild');

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Under node_modules, so that the bundle's imports of packages (left external) resolve as the sources' do. */
const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/bourse-workers');
/** The module that starts nested workers, whose URL every module of a bundle sees as import.meta.url. */
const WORKER_THREAD = new URL('./worker-thread.ts', import.meta.url);
/** The modules allowed to read import.meta.url in a bundle: both are in src/, where that URL points. */
const READS_IMPORT_META = new Set([WORKER_THREAD.href, new URL('./worker-bundle.ts', import.meta.url).href]);
/** Bundles of an earlier version of an entry are removed once this old. */
const STALE_MS = 3_600_000;

const bundles = new Map<string, URL>();

/** The URL of `entry` (a TypeScript module) bundled with everything it imports from the repository. */
export function bundleFromSource(entry: URL): URL {
  let bundle = bundles.get(entry.href);
  // Gone when another process pruned it as stale (this one started over an hour before that one's edit).
  if (bundle === undefined || !existsSync(bundle)) {
    bundle = build(entry);
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

function build(entry: URL): URL {
  // Loaded here, not imported: esbuild is a development dependency, absent where dist/ runs.
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [fileURLToPath(entry)],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Every module of a bundle shares its import.meta: only the two modules beside worker-thread.ts may use it.
    define: { 'import.meta.url': JSON.stringify(WORKER_THREAD.href) },
  });
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(ROOT, input);
    if (!READS_IMPORT_META.has(pathToFileURL(file).href) && readFileSync(file, 'utf8').includes('import.meta')) {
      throw new Error(`${input} reads import.meta, which a worker bundled from source cannot give it (${fileURLToPath(entry)})`);
    }
  }
  const text = result.outputFiles[0].text;
  const name = path.basename(fileURLToPath(entry), '.ts');
  const file = path.join(CACHE_DIR, `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Renamed into place: another process may start a worker from the same bundle meanwhile.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, file);
    removeStale(name, file);
  }
  return pathToFileURL(file);
}

/** Earlier versions of the entry's bundle, unused for an hour: a day of edits would otherwise pile up. */
function removeStale(name: string, current: string): void {
  const now = Date.now();
  for (const other of readdirSync(CACHE_DIR)) {
    const file = path.join(CACHE_DIR, other);
    if (file === current || !other.startsWith(`${name}-`)) continue;
    try {
      if (now - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
