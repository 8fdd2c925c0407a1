import type { SymbolState } from '../../exchange/spot-module.js';
import { clientPingNumber } from './heartbeat.js';
import type { MarketErrorName, RequestId } from './market-errors.js';
import { parseTopic, type StreamVersion, type Topic } from './market-topics.js';

/** A request's `params`, as echoed in its frames: its string, number and boolean entries. */
export type EchoParams = Record<string, string | number | boolean>;

export interface SubscriptionRequest {
  /** The protocol of the socket that sent it: it decides the frames' shape and the topics' limits. */
  version: StreamVersion;
  event: 'sub' | 'cancel';
  id: RequestId;
  topic: Topic;
  /** Distinct, all listed, in the order named; one on v2 except for the index topic. */
  symbols: SymbolState[];
  params: EchoParams;
  binary: boolean;
  /** `params.limit` as sent (0 counts as absent), before the topic's default and maximum. */
  limit: number | undefined;
}

/** What one client text asks for. */
export type ClientMessage =
  | { kind: 'ping'; /** The client's number of `{"ping":<number>}`, else undefined (answer server ms). */ pong: number | undefined }
  | { kind: 'subscription'; request: SubscriptionRequest }
  | { kind: 'cancel_all'; id: RequestId }
  | { kind: 'error'; error: MarketErrorName; id: RequestId };

/** The engine id a symbol may carry as a prefix (`301.BTCUSDT`, docs/spot-api.md "Exchange information"). */
const EXCHANGE_PREFIX = '301.';
const LIMIT_PATTERN = /^[0-9]{1,9}$/;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function echoParams(params: JsonObject): EchoParams {
  const echoed: EchoParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') echoed[name] = value;
  }
  return echoed;
}

/** `limit` as a decimal string or a JSON integer; undefined when absent, null when malformed. */
function readLimit(value: unknown): number | undefined | null {
  if (value === undefined || value === '') return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !LIMIT_PATTERN.test(text)) return null;
  const limit = Number(text);
  return limit === 0 ? undefined : limit;
}

/** A comma list, spaces trimmed, `301.` prefixes dropped, upper-cased; undefined if any is not listed. */
function readSymbols(value: unknown, lookup: (symbol: string) => SymbolState | undefined): SymbolState[] | undefined {
  if (typeof value !== 'string') return undefined;
  const found = new Map<string, SymbolState>();
  for (const part of value.split(',')) {
    const trimmed = part.trim();
    if (trimmed.length === 0) continue;
    const name = (trimmed.startsWith(EXCHANGE_PREFIX) ? trimmed.slice(EXCHANGE_PREFIX.length) : trimmed).toUpperCase();
    const state = lookup(name);
    if (state === undefined) return undefined;
    found.set(state.spec.symbol, state);
  }
  return found.size === 0 ? undefined : [...found.values()];
}

/**
 * Reads one client text of a market socket (docs/websocket.md "Market stream", "v2 market stream"):
 * a ping, a request, or the error frame it earns. Checks run in the order event, topic, params,
 * symbols; the first failure answers. v2 names its symbol in `params` (or, as v1, beside it: the
 * index request), one per message except for the index topic; its realtimes may name a window.
 */
export function readClientMessage(text: string, lookup: (symbol: string) => SymbolState | undefined, version: StreamVersion = 'v1'): ClientMessage {
  if (text.trim().length === 0) return { kind: 'error', error: 'INVALID_REQUEST', id: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const isRequest = isObject(parsed) && ('event' in parsed || 'topic' in parsed);
  if (!isRequest && text.includes('ping')) return { kind: 'ping', pong: clientPingNumber(parsed) };
  if (parsed === undefined) return { kind: 'error', error: 'INVALID_JSON', id: undefined };
  if (!isObject(parsed)) return { kind: 'error', error: 'INVALID_REQUEST', id: undefined };

  const id: RequestId = typeof parsed.id === 'string' || typeof parsed.id === 'number' ? parsed.id : undefined;
  const fail = (error: MarketErrorName): ClientMessage => ({ kind: 'error', error, id });
  const event = nonEmptyString(parsed.event);
  if (event === undefined) return fail('EVENT_REQUIRED');
  if (event === 'cancel_all') return { kind: 'cancel_all', id };
  if (event !== 'sub' && event !== 'cancel') return fail('INVALID_EVENT');

  const params = parsed.params ?? {};
  if (!isObject(params)) return fail('INVALID_REQUEST');
  const topicText = nonEmptyString(parsed.topic);
  if (topicText === undefined) return fail('TOPIC_REQUIRED');
  const topic = parseTopic(topicText, version, stringOf(params.klineType), stringOf(params.realtimeInterval));
  if (typeof topic === 'string') return fail(topic);
  const limit = readLimit(params.limit);
  if (limit === null) return fail('INVALID_REQUEST');
  const symbols = readSymbols(version === 'v2' ? (params.symbol ?? parsed.symbol) : parsed.symbol, lookup);
  if (symbols === undefined || (version === 'v2' && topic.kind !== 'index' && symbols.length > 1)) return fail('INVALID_SYMBOLS');
  const binary = params.binary === true || params.binary === 'true';
  return { kind: 'subscription', request: { version, event, id, topic, symbols, params: echoParams(params), binary, limit } };
}
