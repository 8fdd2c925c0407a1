/**
 * The size of V8's young generation the server runs with. The core's garbage (rows, events, fill
 * views, bigints) dies within a batch; with Node's default 16 MiB semi-spaces a scavenge came every
 * few thousand commands and copied the batch still in flight. At 32 MiB they come half as often:
 * engine and ledger alone +25–40% commands/s, a full replay of a million commands 3.3 → 3.0 s
 * (bench/engine, bench/replay); beyond 32 MiB nothing more was measured. The main thread takes it as
 * `--max-semi-space-size=32` on the command line (package.json's start, dev and bench scripts, the
 * `bourse` command's first line; V8 reads it only at start), the core's worker thread from here.
 */
export const SEMI_SPACE_MB = 32;

/** A worker's young generation in V8's terms: two semi-spaces and the space new large objects take. */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;
