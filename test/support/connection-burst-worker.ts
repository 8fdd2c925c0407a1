/**
 * Load for test/e2e/connection-burst.test.ts, in a thread of its own so that the clients never
 * share an event loop with the server under test: `flooders` keep-alive connections send one
 * request after another (one in flight each), and after a warm-up `bursts` times a burst of
 * `burstSize` new connections each sends one request. Reported: the latencies (ms) of the flood's
 * requests during each burst window, and of each new connection's first answer, counted from its
 * `connect()` (the accept is part of what a reconnecting client waits for).
 */
import { connect, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

export interface BurstLoad {
  port: number;
  host: string;
  /** Request line target, e.g. `/openapi/quote/v1/depth?symbol=BTCUSDT`. */
  target: string;
  flooders: number;
  burstSize: number;
  bursts: number;
  warmUpMs: number;
  /** Flood recorded before each burst starts, so the window holds steady load too. */
  leadMs: number;
}

export interface BurstResult {
  /** Per burst: latencies of flood requests answered in its window. */
  established: number[][];
  /** Per burst: first-answer latencies of its new connections. */
  fresh: number[][];
  /** Answers that were not 200, across everything. */
  non200: number;
}

/** Calls `onAnswer(status)` for each complete answer on `socket` (every answer of Bourse has a Content-Length). */
function readAnswers(socket: Socket, onAnswer: (status: number) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const headEnd = pending.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = pending.subarray(0, headEnd).toString('latin1');
      const length = /\r\ncontent-length: *([0-9]+)/i.exec(head);
      const end = headEnd + 4 + (length === null ? 0 : Number(length[1]));
      if (pending.length < end) return;
      pending = pending.subarray(end);
      onAnswer(Number(head.slice(9, 12)));
    }
  });
}

async function run(load: BurstLoad): Promise<BurstResult> {
  const request = `GET ${load.target} HTTP/1.1\r\nHost: ${load.host}:${load.port}\r\n\r\n`;
  const result: BurstResult = { established: [], fresh: [], non200: 0 };
  let window: number[] | undefined;
  let stopping = false;
  const flood: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: load.flooders },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(load.port, load.host);
          socket.setNoDelay(true);
          flood.push(socket);
          let sentAt = 0;
          const send = (): void => {
            if (stopping) return;
            sentAt = performance.now();
            socket.write(request);
          };
          readAnswers(socket, (status) => {
            if (status !== 200) result.non200++;
            window?.push(performance.now() - sentAt);
            send();
          });
          socket.once('error', reject);
          socket.once('connect', () => {
            send();
            resolve();
          });
        }),
    ),
  );
  // Kept on purpose: the flood runs for a set time (warm-up, then a lead before each burst); wall
  // time under steady load is what is measured, not an event.
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  await sleep(load.warmUpMs);
  for (let b = 0; b < load.bursts; b++) {
    window = [];
    await sleep(load.leadMs);
    const fresh = await Promise.all(
      Array.from(
        { length: load.burstSize },
        () =>
          new Promise<number>((resolve, reject) => {
            const startedAt = performance.now();
            const socket = connect(load.port, load.host);
            socket.setNoDelay(true);
            socket.once('error', reject);
            socket.once('connect', () => socket.write(request));
            readAnswers(socket, (status) => {
              if (status !== 200) result.non200++;
              resolve(performance.now() - startedAt);
              socket.destroy();
            });
          }),
      ),
    );
    result.established.push(window);
    result.fresh.push(fresh);
    window = undefined;
  }
  stopping = true;
  for (const socket of flood) socket.destroy();
  return result;
}

if (parentPort !== null) {
  const port = parentPort;
  run(workerData as BurstLoad).then(
    (result) => port.postMessage({ result }),
    (error: unknown) => port.postMessage({ error: String(error) }),
  );
}
