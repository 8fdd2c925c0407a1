#!/usr/bin/env node
import { runCli } from './run.js';

// exitCode rather than process.exit(): stdout is flushed, and `serve` keeps running.
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
