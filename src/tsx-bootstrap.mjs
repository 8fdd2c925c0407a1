// From source (tests, `tsx src/main.ts`), a worker loads TypeScript only through tsx's loader,
// registered here, in the worker's own thread, before its entry (argv[2]) is imported.
import process from 'node:process';
import { tsImport } from 'tsx/esm/api';

await tsImport(process.argv[2], import.meta.url);
