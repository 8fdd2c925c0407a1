/**
 * Bundles the browser pages (`web/<page>/main.tsx`) into `dist/web`: one minified ES module and
 * one stylesheet per page, named by content hash, and the page's HTML shell that loads them.
 * Skips the work when the output is newer than every source (so `npm start` stays quick).
 */
import { build, type Metafile } from 'esbuild';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = path.join(root, 'web');
const outDir = process.env.BOURSE_WEB_OUT ?? path.join(root, 'dist', 'web');
const stamp = path.join(outDir, '.built');

/** Page name → its title. */
const PAGES: Readonly<Record<string, string>> = { trade: 'Bourse · spot trading', console: 'Bourse · operator console' };

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function isCurrent(): boolean {
  try {
    return statSync(stamp).mtimeMs > Math.max(newestSource(sourceDir), statSync(path.join(root, 'package-lock.json')).mtimeMs);
  } catch {
    return false;
  }
}

function shell(title: string, script: string, style: string | undefined): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:,">
<title>${title}</title>
${style === undefined ? '' : `<link rel="stylesheet" href="/web/${style}">\n`}<script type="module" src="/web/${script}"></script>
</head>
<body>
<div id="app"></div>
<noscript>This page needs JavaScript. The API it uses is described at <a href="/docs">/docs</a>.</noscript>
</body>
</html>
`;
}

function outputsOf(metafile: Metafile, page: string): { script: string; style: string | undefined } {
  const names = Object.keys(metafile.outputs).map((file) => path.basename(file)).filter((file) => file.startsWith(`${page}-`));
  const script = names.find((file) => file.endsWith('.js'));
  if (script === undefined) throw new Error(`no script was built for ${page}`);
  return { script, style: names.find((file) => file.endsWith('.css')) };
}

export async function buildWeb(force = false): Promise<void> {
  if (!force && isCurrent()) return;
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: Object.keys(PAGES).map((page) => ({ in: path.join(sourceDir, page, 'main.tsx'), out: page })),
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    entryNames: '[name]-[hash]',
    outdir: outDir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const [page, title] of Object.entries(PAGES)) {
    const { script, style } = outputsOf(result.metafile, page);
    writeFileSync(path.join(outDir, `${page}.html`), shell(title, script, style));
  }
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildWeb(process.argv.includes('--force'));
}
