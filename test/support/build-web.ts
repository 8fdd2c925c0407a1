import { buildWeb } from '../../web/build.js';

/** Vitest global set-up: the browser pages are built (or found current) before any server serves them. */
export default async function setup(): Promise<void> {
  await buildWeb();
}
