/**
 * An append refused by the database because the leadership row holds another term than the
 * writer's (docs/deployment.md "Fencing"): another node leads now. Nothing of the batch was
 * written; the writer must stop acknowledging at once and rejoin as a follower.
 */
export class FencedError extends Error {
  override readonly name = 'FencedError';

  constructor(
    /** The term this writer was opened with (or given by setTerm). */
    readonly ourTerm: number,
    /** The term in the leadership row when the append was refused. */
    readonly currentTerm: number,
  ) {
    super(`append fenced: this writer holds term ${ourTerm}, the leadership row term ${currentTerm}`);
  }
}
