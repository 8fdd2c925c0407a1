/** Child process of bench/http.ts: the Bourse server, through the same composition root as `node dist/main.js`. */

import { startServer } from '../src/main.js';
import { serveForBench } from './http-child.js';

await serveForBench(() => startServer(process.env));
