/**
 * The frames of the user data stream as the wire carries them (docs/websocket.md "User data stream"
 * "Events"). Types only and no imports, so that the browser pages can read them too (a type import
 * is erased from their bundle).
 */

export interface ExecutionReport {
  e: 'executionReport';
  E: string;
  s: string;
  c: string;
  S: string;
  o: string;
  f: string;
  q: string;
  p: string;
  X: string;
  i: string;
  M: string;
  l: string;
  z: string;
  L: string;
  n: string;
  N: string;
  u: true;
  w: boolean;
  m: boolean;
  O: string;
  Z: string;
  /** Stop price, `"0"` when unset (a Bourse addition, docs/spot-api.md "Stop and iceberg orders"). */
  P: string;
  /** Iceberg quantity, `"0"` when unset (a Bourse addition). */
  F: string;
}

export interface TicketInfo {
  e: 'ticketInfo';
  E: string;
  s: string;
  q: string;
  t: string;
  p: string;
  T: string;
  o: string;
  c: string;
  O: string;
  a: string;
  m: boolean;
  S: string;
}

export interface OutboundAccountInfo {
  e: 'outboundAccountInfo';
  E: string;
  T: boolean;
  W: boolean;
  D: true;
  B: { a: string; f: string; l: string }[];
}
