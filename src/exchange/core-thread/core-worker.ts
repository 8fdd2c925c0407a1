/**
 * The core worker: the one writer (sequencer, core, journal, snapshots) on a thread of its own.
 * It answers each batch once committed with the stamps of the accepted commands and the refusals;
 * the HTTP thread replays the accepted ones on its replica of the core.
 */

import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { openWriter, type Writer } from '../core-host.js';
import type { Outcome } from '../sequencer.js';
import { verifyLedger } from '../verify.js';
import type { CoreWorkerData, FromCoreWorker, Settled, SubmitItem, ToCoreWorker } from './messages.js';

function runCoreWorker(port: MessagePort, data: CoreWorkerData): void {
  const send = (message: FromCoreWorker): void => port.postMessage(message);
  let settled: Settled[] = [];
  let commitMs = 0;
  const sendSettled = (): void => {
    if (settled.length === 0) return;
    send({ type: 'settled', commitMs, settled });
    settled = [];
    commitMs = 0;
  };
  const fatal = (error: unknown): void => {
    // The answers a failing sequencer gave (INTERNAL, or SERVICE_UNAVAILABLE for commands never applied) go first.
    sendSettled();
    send({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
    // Nothing more may be committed: the HTTP thread stops the process.
    port.close();
  };

  let writer: Writer;
  try {
    writer = openWriter({
      ...data,
      // Every command arrives with the HTTP thread's receive time; this clock only fills a gap.
      clock: Date.now,
      onCommit: (info) => {
        commitMs = info.commitMs;
      },
      onFatal: fatal,
      onWriteEvent: (event) => send({ type: 'writeEvent', event }),
    });
  } catch (error) {
    fatal(error);
    return;
  }
  const { core, store, sequencer } = writer;
  // The streams are the HTTP thread's, fed by its replica: events made here would reach no one.
  core.streamedAccounts = new Set();
  const settle = (id: number, outcome: Outcome): void => {
    // One message per batch: the outcomes are settled together, inside the batch's turn.
    if (settled.length === 0) queueMicrotask(sendSettled);
    if (!outcome.accepted) settled.push([id, outcome.error.wireName, outcome.error.wireText()]);
    else if (outcome.followUps.length === 0) settled.push([id, outcome.stamped.seq, outcome.stamped.ts]);
    else settled.push([id, outcome.stamped.seq, outcome.stamped.ts, outcome.followUps.map((f) => f.command)]);
  };

  port.on('message', (message: ToCoreWorker) => {
    switch (message.type) {
      case 'submit':
        for (const [id, command, receivedAt] of JSON.parse(message.items) as SubmitItem[]) sequencer.enqueue(command, (outcome) => settle(id, outcome), receivedAt);
        break;
      case 'verify':
        send({ type: 'verified', id: message.id, report: verifyLedger(core, store, message.now, { replay: message.replay }) });
        break;
      case 'limitPages':
        try {
          send({ type: 'pagesLimited', id: message.id, pages: store.setMaxPageCount(message.pages) });
        } catch (error) {
          // A diagnostic knob that failed (the store is closed): the caller hears it, the writer goes on.
          send({ type: 'pagesLimited', id: message.id, error: error instanceof Error ? error.message : String(error) });
        }
        break;
      case 'close':
        writer
          .close()
          .then(() => {
            send({ type: 'closed' });
            port.close();
          })
          .catch(fatal);
        break;
    }
  });
  send({ type: 'ready', lastSeq: core.lastSeq });
}

if (!isMainThread && parentPort !== null) runCoreWorker(parentPort, workerData as CoreWorkerData);
