import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The project root: the nearest folder above this module holding package.json (from src/ or dist/ alike). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the server module');
    dir = parent;
  }
  return dir;
}

const TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Bourse</title>
<p>The web pages are not built. Run <code>npm run build</code> (or <code>npm start</code>), then reload.
The API works without them: see <a href="/docs">/docs</a>.</p></html>
`;

/**
 * `/` (the trading page) and `/console` (the operator console): HTML shells and their hashed
 * bundles from `dist/web`, built by `web/build.ts` at `npm run build`.
 */
export function registerWebPages(app: FastifyInstance, webDir = process.env.BOURSE_WEB_OUT ?? path.join(projectRoot(), 'dist', 'web')): void {
  const page = (name: string) => async (_request: unknown, reply: FastifyReply) => {
    const file = path.join(webDir, `${name}.html`);
    if (!existsSync(file)) return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT);
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(readFileSync(file));
  };
  app.get('/', page('trade'));
  app.get('/console', page('console'));
  app.get<{ Params: { file: string } }>('/web/:file', async (request, reply) => {
    const name = request.params.file;
    const type = TYPES[path.extname(name)];
    const file = path.join(webDir, name);
    // Bundles only: a name with a path separator or another type is not ours to serve.
    if (type === undefined || name !== path.basename(name) || !existsSync(file)) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
    // Names carry their content hash, so a browser may keep them.
    return reply.type(type).header('Cache-Control', 'public, max-age=31536000, immutable').send(readFileSync(file));
  });
}
