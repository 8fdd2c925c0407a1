/**
 * Citations in the repository name documents that ship with it. Comments, tests, benchmarks,
 * examples and docs cite `docs/<file>.md "<Heading>"` (or `docs/<file>.md` alone); the internal
 * contract documents they once cited are not part of a clone, so no reference to them may remain.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const THIS_FILE = relative(ROOT, fileURLToPath(import.meta.url)).split(sep).join('/');
const SCANNED_DIRS = ['src', 'test', 'bench', 'examples', 'docs'];
const SCANNED_FILES = ['README.md'];
const TEXT_EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|html|css|sh|py|txt|ya?ml)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);

/** References to documents a clone does not contain, and the short section forms that pointed into them. */
const FORBIDDEN: readonly { name: string; pattern: RegExp }[] = [
  { name: 'shared/spec', pattern: /shared\/spec/ },
  { name: 'area-a.md', pattern: /area-a\.md/ },
  { name: 'area-b.md', pattern: /area-b\.md/ },
  { name: 'operator.md', pattern: /(?<![\w-])operator\.md/ },
  { name: 'seed.md', pattern: /(?<![\w-])seed\.md/ },
  { name: 'area A/B §', pattern: /area [AB]('s)? §/i },
  { name: 'bare §<digit>', pattern: /§\s?\d/ },
];

/** `docs/<file>.md "<Heading>"`; the quotes may be escaped inside a string literal. */
const SECTION_CITATION = /(?<![\w/.-])docs\/([\w.-]+\.md) \\?"([^"\\\n]+)\\?"/g;
/** `docs/<file>.md` with or without a heading. */
const FILE_CITATION = /(?<![\w/.-])docs\/([\w.-]+\.md)\b/g;

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...listFiles(path));
    else if (TEXT_EXTENSIONS.test(name)) out.push(path);
  }
  return out;
}

interface Source {
  /** Repository-relative, with `/`. */
  path: string;
  lines: string[];
}

function scannedSources(): Source[] {
  const paths = [...SCANNED_DIRS.flatMap((dir) => listFiles(join(ROOT, dir))), ...SCANNED_FILES.map((file) => join(ROOT, file))];
  return paths
    .map((path) => ({ path: relative(ROOT, path).split(sep).join('/'), lines: readFileSync(path, 'utf8').split('\n') }))
    .filter((source) => source.path !== THIS_FILE);
}

/** Heading texts of a Markdown file, any level, outside fenced code blocks. */
function headingsOf(markdown: string): Set<string> {
  const headings = new Set<string>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const fenceMatch = /^\s*(```|~~~)/.exec(line);
    if (fenceMatch) {
      if (fence === undefined) fence = fenceMatch[1];
      else if (fenceMatch[1] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading?.[1]) headings.add(heading[1]);
  }
  return headings;
}

const headingCache = new Map<string, Set<string> | undefined>();
/** Headings of `docs/<file>`, or undefined when the file does not exist. */
function docHeadings(file: string): Set<string> | undefined {
  if (!headingCache.has(file)) {
    let text: string | undefined;
    try {
      text = readFileSync(join(ROOT, 'docs', file), 'utf8');
    } catch {
      text = undefined;
    }
    headingCache.set(file, text === undefined ? undefined : headingsOf(text));
  }
  return headingCache.get(file);
}

describe('citations of documents', () => {
  const sources = scannedSources();

  it('when the sources are scanned, then there is something to scan', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.some((source) => source.path === 'README.md')).toBe(true);
  });

  it('when sources, tests, benchmarks, examples and docs are read, then none cites the internal spec documents or their § numbers', () => {
    const found: string[] = [];
    for (const source of sources) {
      source.lines.forEach((line, index) => {
        for (const { name, pattern } of FORBIDDEN) {
          if (pattern.test(line)) found.push(`${source.path}:${index + 1} (${name}): ${line.trim().slice(0, 160)}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('when a docs/<file>.md "<Heading>" citation is read, then the file exists and has that heading', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const source of sources) {
      source.lines.forEach((line, index) => {
        for (const match of line.matchAll(FILE_CITATION)) {
          if (docHeadings(match[1]!) === undefined) broken.push(`${source.path}:${index + 1}: docs/${match[1]} does not exist`);
        }
        for (const match of line.matchAll(SECTION_CITATION)) {
          checked += 1;
          const headings = docHeadings(match[1]!);
          if (headings !== undefined && !headings.has(match[2]!)) {
            broken.push(`${source.path}:${index + 1}: docs/${match[1]} has no heading "${match[2]}"`);
          }
        }
      });
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('when the README is read, then its documentation list links docs/spot-api.md', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('](docs/spot-api.md)');
  });
});
