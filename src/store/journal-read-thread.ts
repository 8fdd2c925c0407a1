/**
 * The journal of a SQLite file read on a thread of its own (journal-read-worker.ts), so that the
 * replaying thread only decodes frames and applies: the reading thread runs the SELECT, parses
 * old JSON rows and hands over chunks of frames (journal-chunk.ts) as transferred buffers. The
 * hand-over is synchronous on this side (receiveMessageOnPort, and Atomics.wait while nothing is
 * there), so a synchronous replay can use it; at most MAX_CHUNKS_IN_FLIGHT chunks wait unread.
 * The thread takes a while to start (tens of ms): until it says it is
 * `ready`, the replay reads on its own, then `start`s the thread after the last seq it read.
 */

import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import { startWorker } from '../worker-thread.js';

export interface JournalReadWorkerData {
  path: string;
  /** A chunk is handed over once it holds this many bytes. */
  chunkBytes: number;
  maxChunksInFlight: number;
  /** Int32 counters and flags (READ_SENT … READ_START), then at AFTER_SEQ_BYTE the float64 seq to read after. */
  flags: SharedArrayBuffer;
  port: MessagePort;
}

/** What the reading thread posts: a chunk (the last one says so), or why it stopped. */
export type JournalReadMessage = { chunk: ArrayBuffer; last: boolean } | { error: string };

/** Chunks posted by the reading thread (counted after each post). */
export const READ_SENT = 0;
/** Chunks taken by the replaying thread. */
export const READ_TAKEN = 1;
/** Set by the replaying thread when it stops early. */
export const READ_STOP = 2;
/** Set by the reading thread once its connection and statement are ready. */
export const READ_READY = 3;
/** Set by the replaying thread once it has written the seq to read after. */
export const READ_START = 4;
export const AFTER_SEQ_BYTE = 24;
const FLAGS_BYTES = AFTER_SEQ_BYTE + 8;

/** About 10,000 hot commands a chunk: large enough that a hand-over costs nothing per command. */
const CHUNK_BYTES = 512 * 1024;
/**
 * Enough for the reader to stay ahead of the replay when the scheduler leaves it off a core for a
 * while (8 chunks: about 80,000 commands, 0.2 s of replay), little enough to bound memory (4 MiB).
 */
const MAX_CHUNKS_IN_FLIGHT = 8;
/** The longest the replay waits for a chunk: the reading thread died, or its start failed. */
const STALL_MS = 30_000;

export class JournalReadThread {
  private readonly flags = new Int32Array(new SharedArrayBuffer(FLAGS_BYTES));
  private readonly port: MessagePort;
  private readonly worker: Worker;
  private received = 0;
  private finished = false;
  private failure: Error | undefined;

  constructor(path: string) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    const data: JournalReadWorkerData = {
      path,
      chunkBytes: CHUNK_BYTES,
      maxChunksInFlight: MAX_CHUNKS_IN_FLIGHT,
      flags: this.flags.buffer as SharedArrayBuffer,
      port: channel.port2,
    };
    this.worker = startWorker('store/journal-read-worker', { workerData: data, transferList: [channel.port2] });
    // A failure at the thread's start reaches the replay as a stall (it waits on the counter, not on events).
    this.worker.on('error', (error) => {
      this.failure = error;
    });
    this.worker.unref();
  }

  /** Whether the thread can start reading at once (or has failed to start, which `next` tells). */
  ready(): boolean {
    return Atomics.load(this.flags, READ_READY) !== 0 || Atomics.load(this.flags, READ_SENT) !== 0;
  }

  /** Lets the thread read the journal after `afterSeq` (waiting for it to be ready, if need be). */
  start(afterSeq: number): void {
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new RangeError(`afterSeq must be ≥ 0: ${afterSeq}`);
    new Float64Array(this.flags.buffer, AFTER_SEQ_BYTE, 1)[0] = afterSeq;
    Atomics.store(this.flags, READ_START, 1);
    Atomics.notify(this.flags, READ_START);
  }

  /** The next chunk, waiting for it; undefined after the last. Throws what the reading thread threw. */
  next(): ArrayBuffer | undefined {
    if (this.finished) return undefined;
    if (Atomics.load(this.flags, READ_START) === 0) throw new Error('journal read thread: next() before start()');
    for (;;) {
      const message = receiveMessageOnPort(this.port)?.message as JournalReadMessage | undefined;
      if (message !== undefined) {
        this.received++;
        Atomics.add(this.flags, READ_TAKEN, 1);
        Atomics.notify(this.flags, READ_TAKEN);
        if ('error' in message) throw new Error(`journal read thread: ${message.error}`);
        this.finished = message.last;
        return message.chunk;
      }
      // The thread posts, then counts: a count ahead of what was received means a message is there.
      if (Atomics.load(this.flags, READ_SENT) === this.received && Atomics.wait(this.flags, READ_SENT, this.received, STALL_MS) === 'timed-out') {
        throw new Error(`journal read thread sent nothing for ${STALL_MS} ms${this.failure === undefined ? '' : `: ${this.failure.message}`}`);
      }
    }
  }

  /** Stops the thread (if still reading) and lets it close its connection. */
  close(): void {
    Atomics.store(this.flags, READ_STOP, 1);
    Atomics.notify(this.flags, READ_TAKEN);
    Atomics.notify(this.flags, READ_START);
    this.port.close();
  }
}
