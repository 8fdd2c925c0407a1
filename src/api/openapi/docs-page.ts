import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { StaticFiles } from '../static-files.js';

/** Swagger UI ships as static files in `swagger-ui-dist`: served from our own dependencies, no CDN. */
const distDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bourse API reference</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<style>body{margin:0}.swagger-ui .filter-container .operation-filter-input{width:100%}</style>
</head>
<body>
<div id="swagger-ui"></div>
<noscript><p>This page needs JavaScript. The same reference, machine-readable: <a href="/openapi.json">/openapi.json</a>.</p></noscript>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Swagger UI's filter box matches tag names only; this plugin makes it a search over each
 * operation's tag, method, path, summary and id (the filter box's documented extension point).
 */
const INIT = `'use strict';
function searchEverything() {
  return {
    fn: {
      opsFilter: function (taggedOps, phrase) {
        // \`filter: true\` arrives as the phrase itself before anything is typed.
        if (typeof phrase !== 'string') return taggedOps;
        var words = phrase.toLowerCase().split(/\\s+/).filter(Boolean);
        return taggedOps
          .map(function (tagObj, tag) {
            return tagObj.set('operations', tagObj.get('operations').filter(function (op) {
              var text = [tag, op.get('method'), op.get('path'), op.getIn(['operation', 'summary']), op.getIn(['operation', 'operationId'])].join(' ').toLowerCase();
              return words.every(function (word) { return text.indexOf(word) !== -1; });
            }));
          })
          .filter(function (tagObj) { return tagObj.get('operations').size > 0; });
      },
    },
  };
}
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  filter: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: -1,
  displayRequestDuration: true,
  plugins: [searchEverything],
});
`;

/** `/docs`: the API reference rendered by Swagger UI from `/openapi.json`, with search across operations. */
export function registerDocsPage(app: FastifyInstance): void {
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/docs/init.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(INIT));
  const assets = new StaticFiles();
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/docs/assets/${name}`, async (_request, reply) => {
      const content = assets.read(path.join(distDir, name));
      if (content === undefined) throw new Error(`swagger-ui-dist has no ${name}`);
      return reply.type(type).header('Cache-Control', 'public, max-age=86400').send(content);
    });
  }
}
