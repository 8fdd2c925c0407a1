import { gzipSync } from 'node:zlib';
import type { RequestId } from './market-errors.js';
import type { EchoParams } from './market-request.js';
import { frameParams, frameTopic, type Topic } from './market-topics.js';

/**
 * A frame's fields before `data` (`id` only when the request had one; `params` the request's,
 * plus `klineType` / `realtimeInterval`), as JSON text without its closing brace: made once per
 * subscription, so a fan-out formats each `data` once and only splices it in.
 */
export function frameHead(id: RequestId, symbol: string, topic: Topic, params: EchoParams): string {
  const fields = { symbol, symbolName: symbol, topic: frameTopic(topic), params: { binary: 'false', ...params, ...frameParams(topic) } };
  return JSON.stringify(id === undefined ? fields : { id, ...fields }).slice(0, -1);
}

/** `{…head,"data":[…],"f":…,"sendTime":…}` (docs/websocket.md "Market stream"); `dataJson` is the JSON array text. */
export function frameText(head: string, dataJson: string, first: boolean, sendTime: number): string {
  return `${head},"data":${dataJson},"f":${first},"sendTime":${sendTime}}`;
}

/**
 * One frame as every subscriber that gets it is sent it: the text, its UTF-8 bytes for a text
 * frame and their gzip for a binary one, each made at most once, however many sockets take it.
 * `ws` writes a Buffer as it is; a string it would encode afresh for every socket.
 */
export class MarketFrame {
  private utf8: Buffer | undefined;
  private gzipped: Buffer | undefined;

  constructor(readonly text: string) {}

  /** The payload of a text frame. */
  bytes(): Buffer {
    return (this.utf8 ??= Buffer.from(this.text, 'utf8'));
  }

  /** The payload of a binary (`params.binary`) frame. */
  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.bytes()));
  }
}

/**
 * The frames of one publish (one `data` at one `sendTime`): subscriptions with the same head (same
 * request id and params, so the same text) share one `MarketFrame`.
 */
export class FramePublish {
  private readonly byHead = new Map<string, MarketFrame>();

  constructor(
    private readonly dataJson: string,
    private readonly first: boolean,
    private readonly sendTime: number,
  ) {}

  frameFor(head: string): MarketFrame {
    let frame = this.byHead.get(head);
    if (frame === undefined) {
      frame = new MarketFrame(frameText(head, this.dataJson, this.first, this.sendTime));
      this.byHead.set(head, frame);
    }
    return frame;
  }

  /** Distinct frames made so far. */
  get size(): number {
    return this.byHead.size;
  }
}
