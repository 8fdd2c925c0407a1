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
