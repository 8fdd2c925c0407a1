/**
 * How a stamped command is stored in the journal, the same on every store: its seq and ts as
 * integers, its type as text (readable in the table without parsing) and the command as JSON
 * text. Decoding checks what comes back: seqs follow each other without a gap and each payload
 * is the command its row says it is.
 */

import type { Command, StampedCommand } from '../core/types.js';

/** A journal row as stored. */
export interface JournalRecord {
  seq: number;
  ts: number;
  type: string;
  payload: string;
}

/** The stored text of a command. */
export function encodeCommand(command: Command): string {
  return JSON.stringify(command);
}

/** The row that stores `stamped`. */
export function journalRecordOf(stamped: StampedCommand): JournalRecord {
  return { seq: stamped.seq, ts: stamped.ts, type: stamped.command.type, payload: encodeCommand(stamped.command) };
}

/** The stamped command of a row read after `previousSeq`; throws on a gap or a payload of another type. */
export function decodeJournalRecord(record: JournalRecord, previousSeq: number): StampedCommand {
  if (record.seq !== previousSeq + 1) {
    throw new Error(`journal gap: seq ${record.seq} follows ${previousSeq}`);
  }
  const command = JSON.parse(record.payload) as Command;
  if (command.type !== record.type) {
    throw new Error(`journal seq ${record.seq}: payload type ${command.type} differs from ${record.type}`);
  }
  return { seq: record.seq, ts: record.ts, command };
}
