/** Child process of bench/http.ts: a bare Fastify 5 app with one route, the ceiling the order and depth figures are read against. */

import Fastify from 'fastify';
import { serveForBench } from './http-child.js';

await serveForBench(async () => {
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
});
