import type { RawData } from 'ws';

/** A client frame of either stream as text (`ws` hands a Buffer, a list of them, or an ArrayBuffer). */
export function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
