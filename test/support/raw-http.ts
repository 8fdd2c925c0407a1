/**
 * HTTP/1.1 over a plain socket, byte for byte. `fetch` re-encodes what it sends: it cannot carry
 * bytes that are not UTF-8 in a target, repeat a header, or send a malformed request.
 */
import { connect } from 'node:net';

export type RawHeader = readonly [name: string, value: string];

export interface RawRequest {
  method: string;
  /** Path and raw query, sent as they are (bytes above 0x7F included when given as a Buffer). */
  target: string | Buffer;
  /** Sent in this order; a name may appear more than once. */
  headers?: readonly RawHeader[];
  /** `Content-Length` is added for a non-empty body unless `headers` already name one. */
  body?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  /** By lower-case name; every value of a repeated header. */
  headers: Readonly<Record<string, readonly string[]>>;
  text: string;
  /** Parsed JSON body (undefined if not JSON). */
  body: unknown;
}

const ANSWER_TIMEOUT_MS = 5_000;
/** Every answer of this server is small; a bigger one means something ran away. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const CRLF = '\r\n';

/** Sends one request on a fresh connection (`Connection: close`) and reads the whole answer. */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const head = requestHead(url.host, request);
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) });
    const chunks: Buffer[] = [];
    let received = 0;
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => socket.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_ANSWER_BYTES) socket.destroy(new Error(`answer over ${MAX_ANSWER_BYTES} bytes`));
      chunks.push(chunk);
    });
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.write(Buffer.concat([head, body]));
  });
}

function requestHead(host: string, request: RawRequest): Buffer {
  const headers = [...(request.headers ?? [])];
  const names = new Set(headers.map(([name]) => name.toLowerCase()));
  if (!names.has('host')) headers.unshift(['Host', host]);
  const bodyLength = request.body === undefined ? 0 : Buffer.byteLength(request.body);
  if (bodyLength > 0 && !names.has('content-length')) headers.push(['Content-Length', String(bodyLength)]);
  headers.push(['Connection', 'close']);
  const lines = headers.map(([name, value]) => `${name}: ${value}${CRLF}`).join('');
  return Buffer.concat([
    Buffer.from(`${request.method} `, 'latin1'),
    Buffer.from(request.target),
    Buffer.from(` HTTP/1.1${CRLF}${lines}${CRLF}`, 'latin1'),
  ]);
}

function parseAnswer(raw: Buffer): RawAnswer {
  const headEnd = raw.indexOf(`${CRLF}${CRLF}`);
  if (headEnd < 0) throw new Error(`incomplete answer: ${JSON.stringify(raw.toString('latin1'))}`);
  const [statusLine, ...headerLines] = raw.subarray(0, headEnd).toString('latin1').split(CRLF);
  const status = /^HTTP\/1\.[01] ([0-9]{3})/.exec(statusLine)?.[1];
  if (status === undefined) throw new Error(`bad status line: ${statusLine}`);
  const headers: Record<string, string[]> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  let payload = raw.subarray(headEnd + 4);
  if (headers['transfer-encoding']?.some((value) => value.toLowerCase() === 'chunked') === true) payload = dechunk(payload);
  const text = payload.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(status), headers, text, body };
}

function dechunk(payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  // Each turn consumes one chunk of at least its size line, so the loop ends within payload.length turns.
  for (let turn = 0; turn <= payload.length; turn++) {
    const lineEnd = payload.indexOf(CRLF, at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(payload.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isSafeInteger(size) || size === 0) break;
    parts.push(payload.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
