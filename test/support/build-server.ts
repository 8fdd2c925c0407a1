/**
 * Vitest global set-up: the server is compiled to dist/ (the first half of `npm run build`, which
 * `npm start` runs; incremental, about a second when nothing changed), so that the tests' child
 * processes run what `npm start` runs. Under tsx each start compiled its modules again: a second
 * of CPU per start, and the crash, takeover and shutdown tests start dozens.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (build.error !== undefined) throw build.error;
  // A type error still emits JavaScript, as tsx runs it; `npm run lint` is where types are checked.
  if (build.status !== 0) console.warn(`tsc -b tsconfig.build.json (exit ${build.status}):\n${build.stdout}${build.stderr}`);
}
