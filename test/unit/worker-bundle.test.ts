/**
 * Workers started from source run their entry bundled by esbuild (src/worker-bundle.ts): the bundle
 * runs as a worker, imports packages as the sources do, is built once per process, and an entry
 * whose modules read import.meta (which a bundle cannot give each of them) is refused by name.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFromSource } from '../../src/worker-bundle.js';

describe('a worker entry bundled from source', () => {
  let dir: string;
  const entry = (name: string): URL => pathToFileURL(path.join(dir, name));

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-worker-bundle-'));
    // A TypeScript entry importing a sibling module and a package (left external, resolved from node_modules).
    writeFileSync(path.join(dir, 'answer.ts'), 'export const answer: number = 6 * 7;\n');
    writeFileSync(
      path.join(dir, 'entry.ts'),
      "import { parentPort } from 'node:worker_threads';\nimport Database from 'better-sqlite3';\nimport { answer } from './answer.ts';\n" +
        "const db = new Database(':memory:');\nparentPort?.postMessage({ answer, sqlite: (db.prepare('select 1 + 1 as two').get() as { two: number }).two });\ndb.close();\n",
    );
    writeFileSync(path.join(dir, 'where.ts'), 'export const where: string = import.meta.url;\n');
    writeFileSync(path.join(dir, 'reads-meta.ts'), "import { where } from './where.ts';\nconsole.log(where);\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when it is started as a worker, then it runs its TypeScript and the packages it imports', async () => {
    const worker = new Worker(bundleFromSource(entry('entry.ts')));
    const message = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
    await worker.terminate();
    expect(message).toEqual({ answer: 42, sqlite: 2 });
  });

  it('when the same entry is asked for again, then the bundle built first is given', () => {
    expect(bundleFromSource(entry('entry.ts')).href).toBe(bundleFromSource(entry('entry.ts')).href);
    expect(bundleFromSource(entry('entry.ts')).pathname).toMatch(/\/node_modules\/\.cache\/bourse-workers\/entry-[0-9a-f]{16}\.mjs$/);
  });

  it('when the bundle built first was removed since (pruned by another process), then it is built again', () => {
    const first = bundleFromSource(entry('entry.ts'));
    rmSync(first);
    const again = bundleFromSource(entry('entry.ts'));
    expect(again.href).toBe(first.href);
    expect(existsSync(again)).toBe(true);
  });

  it('when a module of the entry reads import.meta, then the bundle is refused naming that module', () => {
    expect(() => bundleFromSource(entry('reads-meta.ts'))).toThrow(/where\.ts reads import\.meta/);
  });
});
