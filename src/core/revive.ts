import { reviveError } from './errors.js';
import { revivePaymentError } from './payment-errors.js';
import type { Refusal } from './refusal.js';

/** A refusal from its `wireName` and `wireText`, as the core worker sends them. */
export function reviveRefusal(wireName: string, text: string): Refusal {
  if (wireName.startsWith('B:')) return revivePaymentError(text);
  return reviveError(wireName.slice(2), text);
}
