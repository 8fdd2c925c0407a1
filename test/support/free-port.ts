import { createServer, type AddressInfo } from 'node:net';

/**
 * A port free now, for a server whose address must be known before it starts (BOURSE_NODE_URL
 * names it). Another process may take it before then: only for tests on this machine.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
