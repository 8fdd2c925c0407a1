#!/usr/bin/env -S node --max-semi-space-size=32
import { runCli, serverDeps } from './run.js';

// exitCode rather than process.exit(): stdout is flushed, and `serve` keeps running.
// Ctrl-C ends the webhook debugger's long-running commands cleanly (a second one exits at once);
// other commands keep Node's default, and `serve` installs its own (drain, snapshot, exit 0; see serverDeps).
const stop = new AbortController();
const argv = process.argv.slice(2);
if (argv.includes('webhooks')) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stop.signal.aborted) process.exit(130);
      stop.abort();
    });
  }
}
process.exitCode = await runCli(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env }, { ...serverDeps, stop: stop.signal });
