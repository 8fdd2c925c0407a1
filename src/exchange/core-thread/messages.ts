/** What the HTTP thread and the core worker say to each other (structured-clone messages). */

import type { Command } from '../../core/types.js';
import type { WriteEvent } from '../core-host.js';
import type { VerifyReport } from '../verify.js';

export interface CoreWorkerData {
  dbPath: string;
  synchronous: 'NORMAL' | 'FULL';
  snapshotEveryCommands: number;
  /** The HTTP thread bounds what it has pending by the same number: the worker's queue never holds more. */
  maxPendingCommands?: number;
  writeProbeMs?: number;
}

/**
 * A command with the id its submitter waits under and the time the HTTP thread took it in: that
 * thread's clock is the exchange's one clock (the stamp is never before it).
 */
export type SubmitItem = [id: number, command: Command, receivedAt: number];

export type ToCoreWorker =
  /** `SubmitItem[]` as JSON text: commands are JSON (the journal holds them so), and text crosses faster than a structured clone. */
  | { type: 'submit'; items: string }
  | { type: 'verify'; id: number; replay: boolean; now: number }
  /** CoreHost.limitDatabasePages on the writer's connection. */
  | { type: 'limitPages'; id: number; pages: number | null }
  | { type: 'close' };

/**
 * Committed as the `seq`-th command at `ts` (with the follow-up commands it made due, each journaled
 * right after it); or refused with a registry error and its message.
 */
export type Settled =
  | [id: number, seq: number, ts: number]
  | [id: number, seq: number, ts: number, followUps: Command[]]
  | [id: number, wireName: string, wireText: string];

export type FromCoreWorker =
  | { type: 'ready'; lastSeq: number }
  /** One batch, in submission order, sent once it is committed. */
  | { type: 'settled'; commitMs: number; settled: Settled[] }
  | { type: 'verified'; id: number; report: VerifyReport }
  | { type: 'pagesLimited'; id: number; pages: number }
  | { type: 'pagesLimited'; id: number; error: string }
  | { type: 'writeEvent'; event: WriteEvent }
  | { type: 'closed' }
  | { type: 'fatal'; message: string };
