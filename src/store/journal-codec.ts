/**
 * How a stamped command is stored in the journal, the same on every store: its seq and ts as
 * integers, its type as text (readable in the table without parsing) and the command as text:
 * the compact frame of journal-frame.ts for the hot commands, JSON for every other. Rows written
 * as JSON before frames existed read back as they always did. Decoding checks what comes back:
 * seqs follow each other without a gap and each payload is the command its row says it is.
 */

import type { Command, StampedCommand } from '../core/types.js';
import { decodeCommandFrame, encodeCommandFrame, isFrameText } from './journal-frame.js';

/** A journal row as stored. */
export interface JournalRecord {
  seq: number;
  ts: number;
  type: string;
  payload: string;
}

/** The stored text of a command: its frame where it has one, else its JSON. */
export function encodeCommand(command: Command): string {
  return encodeCommandFrame(command) ?? JSON.stringify(command);
}

/** The command of stored text, frame or JSON. */
export function decodeCommand(payload: string): Command {
  return isFrameText(payload) ? decodeCommandFrame(payload) : (JSON.parse(payload) as Command);
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
  const command = decodeCommand(record.payload);
  if (command.type !== record.type) {
    throw new Error(`journal seq ${record.seq}: payload type ${command.type} differs from ${record.type}`);
  }
  return { seq: record.seq, ts: record.ts, command };
}
