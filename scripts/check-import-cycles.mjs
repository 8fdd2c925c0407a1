/**
 * Fails (exit 1) when the modules of src/ import each other in a circle: a circle of run-time
 * imports makes load order matter, and one of type imports still means two files that cannot be
 * read apart. Part of `npm run lint`. Edges are the relative `import` and `export … from`
 * declarations, read with the TypeScript parser; `import type` (or every name imported as a type)
 * is a type edge. Usage: node scripts/check-import-cycles.mjs [root, default src]
 */
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import ts from 'typescript';

/** Circles that are the design, as sets of files relative to the root, each with why. */
const ALLOWED = [
  {
    files: ['engine/price-level.ts', 'engine/resting-order.ts'],
    why: 'a resting order knows its level and a level its orders (type imports only: one structure, two files)',
  },
];

const root = path.resolve(process.argv[2] ?? 'src');

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
  return ['.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((file) => fs.existsSync(file));
}

function isTypeOnly(statement) {
  if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
  const clause = statement.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

/** file → [{ to, typeOnly }] */
function importGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const edges = [];
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const to = resolve(file, specifier.text);
      if (to !== undefined && to !== file) edges.push({ to, typeOnly: isTypeOnly(statement) });
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), over the edges `keep` accepts. */
function circles(graph, keep) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const edge of graph.get(v)) {
      if (!keep(edge)) continue;
      if (!index.has(edge.to)) {
        visit(edge.to);
        low.set(v, Math.min(low.get(v), low.get(edge.to)));
      } else if (onStack.has(edge.to)) {
        low.set(v, Math.min(low.get(v), index.get(edge.to)));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One loop through the circle, from its first file back to it (breadth first: a shortest one). */
function loopOf(graph, component, keep) {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const edge of graph.get(v)) {
      if (!keep(edge) || !members.has(edge.to)) continue;
      if (edge.to === start) {
        const loop = [start];
        for (let at = v; at !== start; at = cameFrom.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!cameFrom.has(edge.to)) {
        cameFrom.set(edge.to, v);
        queue.push(edge.to);
      }
    }
  }
  return component;
}

const graph = importGraph(sourceFiles(root));
const name = (file) => path.relative(root, file).split(path.sep).join('/');
const allowed = (component) => {
  const names = component.map(name).sort();
  return ALLOWED.some((a) => a.files.length === names.length && [...a.files].sort().every((file, i) => file === names[i]));
};
const problems = [];
const reported = new Set();
for (const [kind, keep] of [
  ['run-time imports', (edge) => !edge.typeOnly],
  ['imports (type imports included)', () => true],
]) {
  for (const component of circles(graph, keep)) {
    const key = component.map(name).sort().join(' ');
    if (reported.has(key) || (kind !== 'run-time imports' && allowed(component))) continue;
    reported.add(key);
    problems.push(`a circle of ${component.length} files through ${kind}: ${loopOf(graph, component, keep).map(name).join(' → ')}`);
  }
}
if (problems.length > 0) {
  process.stderr.write(`Import cycles in ${path.basename(root)}/ (scripts/check-import-cycles.mjs):\n${problems.map((p) => `  ${p}\n`).join('')}`);
  process.exitCode = 1;
}
