/**
 * Writes through any node (docs/deployment.md "Writes through any node"). A follower judges no
 * write: it sends it to the leader unchanged (method, target, body, the headers auth needs) with
 * the client's address signed, and answers the leader's answer once it has applied that answer's
 * seq, so a client reads its own writes on whichever node it asks next. The leader marks every
 * answer with the seq it had committed when it answered.
 */

import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FORWARDED_CLIENT_HEADER, type ForwardedClient } from './forwarded-client.js';

/** The leader's committed seq when it answered. */
export const SEQ_HEADER = 'x-bourse-seq';
/** Reads (and WebSocket upgrades) are served where they arrive; everything else changes state. */
const LOCAL_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Headers of one hop, never passed on (RFC 9110 section 7.6.1), and the ones Node sets for the new hop. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);
/** Bodies are at most 64 KiB in; an answer is small too, but a bound keeps a broken leader from filling memory. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** A forwarded body is read whole first (so it can be sent again); B35's 26 MiB of documents is the largest the API takes. */
const MAX_FORWARDED_BODY_BYTES = 32 * 1024 * 1024;

export interface ClusterEdge {
  /** 'leader' answers here; 'follower' forwards. */
  role(): 'leader' | 'follower';
  /** The leader's BOURSE_NODE_URL ('' when none is known). */
  leaderUrl(): string;
  /** The leader's URL read again from the database now ('' when none). */
  refreshLeaderUrl(): Promise<string>;
  /** The last seq this node applied. */
  appliedSeq(): number;
  waitForSeq(seq: number, timeoutMs: number): Promise<boolean>;
  forwardedClient: ForwardedClient;
  clock: () => number;
  /** How long a forwarded write may take, the leader's answer and this node's catching up included. */
  timeoutMs: number;
  /** Answers "no leader reachable" in the request's area format (503 -1016). */
  unavailable(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  onForwarded(): void;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Installs the leader's and the follower's halves; both apply, since a node changes role at run time. */
export function registerForwarding(app: FastifyInstance, edge: ClusterEdge): void {
  const agents = { http: new Agent({ keepAlive: true, maxSockets: 256 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 256 }) };
  app.addHook('onClose', async () => {
    agents.http.destroy();
    agents.https.destroy();
  });

  app.addHook('onRequest', async (request, reply) => {
    const signed = request.headers[FORWARDED_CLIENT_HEADER];
    if (typeof signed === 'string') {
      // A write another node forwarded: only the leader serves it, never forwarded on (no loops).
      if (edge.role() !== 'leader') return edge.unavailable(request, reply);
      const address = edge.forwardedClient.verify(signed, request.method, request.url, edge.clock());
      if (address !== undefined) Object.defineProperty(request, 'ip', { value: address, configurable: true });
      return undefined;
    }
    // Reads are served here; a route may declare a GET that writes (B0 issues a journaled token).
    const writes = !LOCAL_METHODS.has(request.method) || (request.routeOptions.config as { writes?: boolean } | undefined)?.writes === true;
    if (!writes || edge.role() === 'leader') return undefined;
    const leaderUrl = edge.leaderUrl();
    if (leaderUrl === '') return edge.unavailable(request, reply);
    let answer: Answer;
    try {
      const body = await readBody(request);
      answer = await forward(request, body, leaderUrl, edge, agents).catch(async (error: unknown) => {
        // Nothing reached a leader that is gone (a takeover this node has not seen yet): ask the database who leads now.
        if ((error as NodeJS.ErrnoException).code !== 'ECONNREFUSED') throw error;
        const current = await edge.refreshLeaderUrl();
        if (current === '' || current === leaderUrl) throw error;
        return forward(request, body, current, edge, agents);
      });
    } catch (error) {
      request.log.warn({ err: error, leaderUrl }, 'a forwarded write found no leader');
      return edge.unavailable(request, reply);
    }
    edge.onForwarded();
    const seq = Number(answer.headers[SEQ_HEADER]);
    if (Number.isSafeInteger(seq) && seq > edge.appliedSeq()) {
      const reached = await edge.waitForSeq(seq, edge.timeoutMs);
      if (!reached) request.log.warn({ seq, applied: edge.appliedSeq() }, 'answered a forwarded write before applying it here');
    }
    reply.code(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name) && name !== SEQ_HEADER) reply.header(name, value);
    }
    return reply.send(answer.body);
  });

  app.addHook('onSend', async (_request, reply) => {
    if (edge.role() === 'leader') reply.header(SEQ_HEADER, String(edge.appliedSeq()));
  });
}

function readBody(request: FastifyRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORWARDED_BODY_BYTES) request.raw.destroy(new Error(`a forwarded body is over ${MAX_FORWARDED_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    request.raw.on('end', () => resolve(Buffer.concat(chunks)));
    request.raw.on('error', reject);
  });
}

function forward(request: FastifyRequest, body: Buffer, leaderUrl: string, edge: ClusterEdge, agents: { http: Agent; https: HttpsAgent }): Promise<Answer> {
  const target = new URL(request.url, leaderUrl);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !HOP_HEADERS.has(name)) headers[name] = value;
  }
  headers['content-length'] = String(body.length);
  headers[FORWARDED_CLIENT_HEADER] = edge.forwardedClient.sign(request.ip, request.method, request.url, edge.clock());
  const https = target.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const upstream = send(target, { method: request.method, headers, agent: https ? agents.https : agents.http, timeout: edge.timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) response.destroy(new Error(`the leader's answer is over ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('the leader did not answer in time')));
    upstream.on('error', reject);
    upstream.end(body);
  });
}
