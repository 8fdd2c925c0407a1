import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, type CliIo } from '../../../src/cli/run.js';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface CannedAnswer {
  readonly status?: number;
  /** Sent as is when a string, else as JSON. */
  readonly body: unknown;
}

/** A stand-in for the operator API: records every request and answers from `answer`. */
export interface FakeAdmin {
  readonly url: string;
  readonly requests: RecordedRequest[];
  answer: (request: RecordedRequest) => CannedAnswer;
  close(): Promise<void>;
}

export async function startFakeAdmin(): Promise<FakeAdmin> {
  const requests: RecordedRequest[] = [];
  const fake: Omit<FakeAdmin, 'url' | 'close'> = { requests, answer: () => ({ body: {} }) };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const { status = 200, body } = fake.answer(recorded);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  });
}

export interface CapturedIo {
  readonly io: CliIo;
  stdout(): string;
  stderr(): string;
}

export function captureIo(env: Record<string, string | undefined>): CapturedIo {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      env,
    },
    stdout: () => out,
    stderr: () => err,
  };
}

/** One `bourse …` invocation against the fake, with its URL and `token`; `serve` is refused. */
export async function runAgainst(fake: Pick<FakeAdmin, 'url'>, token: string, argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const captured = captureIo({ BOURSE_URL: fake.url, BOURSE_ADMIN_TOKEN: token });
  const exitCode = await runCli(argv, captured.io, { startServer: () => Promise.reject(new Error('not in this test')) });
  return { exitCode, stdout: captured.stdout(), stderr: captured.stderr() };
}
