/**
 * A command or request refused with a registry error: an answer, not a fault. Each area has its own
 * registry and wire format (area A `{code, msg}`, area B its envelope); the sequencer and the core
 * worker treat both alike, as refusals that leave state unchanged.
 */
export abstract class Refusal extends Error {
  abstract readonly code: number;
  abstract readonly http: number;
  /** Registry name prefixed with its area (`A:…`, `B:…`): unique across both registries. */
  abstract readonly wireName: string;
  abstract toBody(): object;
  /** What `reviveRefusal` needs besides `wireName` to rebuild it on another thread. */
  abstract wireText(): string;

  constructor(message: string) {
    // A refusal needs no stack trace: capturing one dominated the cost of refused requests.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
  }
}
