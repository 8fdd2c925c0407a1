/**
 * A chunk of journal rows as the reading thread hands them to the replaying one: one transferable
 * buffer, so the hand-over costs no copy and no structured clone. Each row is its seq and ts
 * (float64), then either the command's frame (journal-frame.ts) or, for a command the frame
 * cannot hold, its row type and JSON text. The reading thread turns the JSON rows of the hot
 * commands (all of them, in a journal written before frames) into frames, so the replaying thread
 * parses no JSON for them; it still checks the seq chain, and the reading thread each frame
 * against its row's type.
 */

import type { StampedCommand } from '../core/types.js';
import { FrameReader, FrameWriter, FRAME_TYPES, isFrameText, MAX_FRAME_CHARS, writeCommandFrame } from './journal-frame.js';
import { decodeJournalRecord, type JournalRecord } from './journal-codec.js';

const ROW_FRAME = 1;
const ROW_JSON = 2;

const textEncoder = new TextEncoder();

/** Builds one chunk; `take()` hands its bytes over and starts the next. */
export class ChunkWriter {
  private readonly out: FrameWriter;

  constructor(capacityBytes: number) {
    this.out = new FrameWriter(capacityBytes);
  }

  get bytes(): number {
    return this.out.length;
  }

  /** Appends a stored row, checked against its type; a JSON row of a hot command becomes its frame. */
  add(record: JournalRecord): void {
    const out = this.out;
    out.reserve(21);
    out.f64(record.seq);
    out.f64(record.ts);
    const payload = record.payload;
    if (isFrameText(payload)) {
      const type = FRAME_TYPES[payload.charCodeAt(0)];
      if (type !== record.type) throw new Error(`journal seq ${record.seq}: payload type ${type} differs from ${record.type}`);
      if (payload.length > MAX_FRAME_CHARS) throw new Error(`journal seq ${record.seq}: a frame of ${payload.length} characters`);
      out.reserve(5 + payload.length);
      out.u8(ROW_FRAME);
      out.u32(payload.length);
      out.chars(payload);
    } else {
      const command = decodeJournalRecord(record, record.seq - 1).command;
      out.u8(ROW_FRAME);
      const lengthAt = out.length;
      out.u32(0);
      if (writeCommandFrame(command, out)) {
        out.patchU32(lengthAt, out.length - lengthAt - 4);
      } else {
        out.length = lengthAt - 1;
        this.addJson(record.type, payload);
      }
    }
  }

  private addJson(type: string, json: string): void {
    const out = this.out;
    const typeBytes = textEncoder.encode(type);
    const jsonBytes = textEncoder.encode(json);
    out.reserve(9 + typeBytes.length + jsonBytes.length);
    out.u8(ROW_JSON);
    out.u32(typeBytes.length);
    out.raw(typeBytes);
    out.u32(jsonBytes.length);
    out.raw(jsonBytes);
  }

  /** The chunk's bytes, in a buffer of their own (to transfer); the writer starts empty. */
  take(): ArrayBuffer {
    const bytes = this.out.bytes();
    this.out.length = 0;
    return bytes;
  }
}

/**
 * Reads back the rows of chunks in order, checking that seqs follow each other without a gap
 * from `afterSeq` on.
 */
export class ChunkReader {
  private readonly reader = new FrameReader(new Uint8Array(0));
  private previousSeq: number;

  constructor(afterSeq: number) {
    this.previousSeq = afterSeq;
  }

  /** Starts on the next chunk; the rows of the one before must all have been read. */
  load(chunk: ArrayBuffer): void {
    if (this.reader.offset !== this.reader.end) throw new Error('journal chunk: rows left unread');
    this.reader.reset(new Uint8Array(chunk));
  }

  /** The next row's command, or undefined at the end of the chunk. */
  next(): StampedCommand | undefined {
    const reader = this.reader;
    if (reader.offset === reader.end) return undefined;
    const end = reader.end;
    const seq = reader.f64();
    const ts = reader.f64();
    if (seq !== this.previousSeq + 1) throw new Error(`journal gap: seq ${seq} follows ${this.previousSeq}`);
    const kind = reader.u8();
    let stamped: StampedCommand;
    if (kind === ROW_FRAME) {
      const length = reader.u32();
      const rowEnd = reader.offset + length;
      if (rowEnd > end) throw new Error(`journal chunk: frame of seq ${seq} runs past the chunk`);
      reader.end = rowEnd;
      stamped = { seq, ts, command: reader.command() };
      reader.end = end;
    } else if (kind === ROW_JSON) {
      const type = reader.utf8(reader.u32());
      stamped = decodeJournalRecord({ seq, ts, type, payload: reader.utf8(reader.u32()) }, this.previousSeq);
    } else {
      throw new Error(`journal chunk: unknown row kind ${kind} at seq ${seq}`);
    }
    this.previousSeq = seq;
    return stamped;
  }
}
