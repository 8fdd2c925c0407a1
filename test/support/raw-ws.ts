import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** What a raw reader found once it read again: the data it had been sent, then how the stream ended. */
export interface ReadToClose {
  /** Payload bytes of the data frames before the close frame. */
  dataBytes: number;
  /** Protocol pings among them (the server's read receipts), which the reader never answered. */
  pings: number;
  /** The close frame's code and reason; undefined when the connection ended without one. */
  close: { code: number; reason: string } | undefined;
}

const HANDSHAKE_END = '\r\n\r\n';
const OPCODE_CLOSE = 0x8;
const OPCODE_PING = 0x9;

/** A masked client text frame (RFC 6455, section 5.2). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  const mask = randomBytes(4);
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x81, 0x80 | length]) : Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff]);
  if (length > 0xffff) throw new Error(`text frame of ${length} bytes: longer than this client writes`);
  const masked = Buffer.alloc(length);
  for (let i = 0; i < length; i++) masked[i] = payload[i] ^ mask[i % 4];
  return Buffer.concat([header, mask, masked]);
}

/**
 * A WebSocket client written by hand on a TCP socket, for what no library lets a test do: never
 * read, as a stuck client does. From the handshake on its socket is paused (the kernel buffers
 * fill, then nothing more is taken, and pings go unanswered); it sends text frames, and
 * `readToClose()` reads again and parses the server's frames up to the close frame.
 */
export class RawWsClient {
  private buffered: Buffer;
  private readonly ended: Promise<void>;

  private constructor(
    private readonly socket: Socket,
    rest: Buffer,
  ) {
    this.buffered = rest;
    this.ended = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  /** Opens `path` on `httpUrl`'s host; rejects unless the server switches protocols. */
  static async open(httpUrl: string, path: string): Promise<RawWsClient> {
    const url = new URL(httpUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const key = randomBytes(16).toString('base64');
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    let received = Buffer.alloc(0);
    const rest = await new Promise<Buffer>((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf(HANDSHAKE_END);
        if (end < 0) return;
        socket.off('data', onData);
        socket.pause();
        const head = received.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101')) reject(new Error(`handshake refused: ${head.split('\r\n')[0]}`));
        else resolve(received.subarray(end + HANDSHAKE_END.length));
      };
      socket.on('data', onData);
      socket.once('error', reject);
    });
    return new RawWsClient(socket, rest);
  }

  /** The client's port: with its address, what the server's log names. */
  get localPort(): number {
    const port = this.socket.localPort;
    if (port === undefined) throw new Error('the socket is not connected');
    return port;
  }

  /** Sends a request as a text frame. */
  send(request: object): void {
    this.socket.write(textFrame(JSON.stringify(request)));
  }

  /** Reads again, up to the server's close frame or the end of the connection. */
  async readToClose(): Promise<ReadToClose> {
    const result: ReadToClose = { dataBytes: 0, pings: 0, close: undefined };
    const parse = (): boolean => {
      for (;;) {
        const frame = this.nextFrame();
        if (frame === undefined) return false;
        if (frame.opcode === OPCODE_CLOSE) {
          result.close = { code: frame.payload.readUInt16BE(0), reason: frame.payload.subarray(2).toString('utf8') };
          return true;
        }
        if (frame.opcode === OPCODE_PING) result.pings++;
        else result.dataBytes += frame.payload.length;
      }
    };
    if (!parse()) {
      await new Promise<void>((resolve) => {
        const onData = (chunk: Buffer): void => {
          this.buffered = Buffer.concat([this.buffered, chunk]);
          if (!parse()) return;
          this.socket.off('data', onData);
          resolve();
        };
        this.socket.on('data', onData);
        void this.ended.then(resolve);
        this.socket.resume();
      });
    }
    this.socket.destroy();
    return result;
  }

  /** Ends the connection without a close handshake. */
  async destroy(): Promise<void> {
    this.socket.destroy();
    await this.ended;
  }

  /** The next whole server frame in the buffer, taken off it (server frames are unmasked). */
  private nextFrame(): { opcode: number; payload: Buffer } | undefined {
    const b = this.buffered;
    if (b.length < 2) return undefined;
    let length = b[1] & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (b.length < 4) return undefined;
      length = b.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (b.length < 10) return undefined;
      length = Number(b.readBigUInt64BE(2));
      offset = 10;
    }
    if (b.length < offset + length) return undefined;
    const frame = { opcode: b[0] & 0x0f, payload: b.subarray(offset, offset + length) };
    this.buffered = b.subarray(offset + length);
    return frame;
  }
}
