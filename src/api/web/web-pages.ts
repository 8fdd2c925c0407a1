import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { StaticFiles } from '../static-files.js';

/** `dist/web` of this project: this module is three folders below the root, in src/ and dist/ alike. */
const BUILT_PAGES = fileURLToPath(new URL('../../../dist/web', import.meta.url));

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
export function registerWebPages(app: FastifyInstance, webDir = process.env.BOURSE_WEB_OUT ?? BUILT_PAGES): void {
  const bundles = new StaticFiles();
  // The shells are read on each request (no-cache): a rebuild under a running server names new bundles.
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
    // Bundles only: a name with a path separator or another type is not ours to serve.
    const content = type === undefined || name !== path.basename(name) ? undefined : bundles.read(path.join(webDir, name));
    // Not ours (an empty name included): the server's one 404, `{code, msg}` like any unknown path.
    if (content === undefined) return reply.callNotFound();
    // Names carry their content hash, so a browser may keep them.
    return reply.type(type).header('Cache-Control', 'public, max-age=31536000, immutable').send(content);
  });
}
