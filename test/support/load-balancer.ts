/**
 * What deploy/haproxy.cfg has HAProxy do, done in the test's process, for a test of the deployment
 * on a machine with neither HAProxy nor Docker. From the file's backend it takes: the health check
 * (`option httpchk`, `http-check expect status`, `inter`, `fall`, `rise` of `check`), one node per
 * client address while that node is up (`balance source` with `hash-type consistent`, here as
 * rendezvous hashing: a node's going down moves only its own clients), the client's address added as
 * X-Forwarded-For (`option forwardfor`), and a request whose connection could not be made tried
 * again, on another node (`retries`, `option redispatch`); a request that reached a node is never
 * sent twice. WebSocket upgrades are tunnelled. It connects to the nodes from an address of its
 * own, as HAProxy has its own in compose.yaml, so that a node tells it from its clients.
 */

import { createHash } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { haproxyTimeMs } from './deploy-files.js';
import { Watch } from './watch.js';

/** HAProxy's defaults where the file says nothing (its configuration manual, "5.2 Server and default-server options"). */
const DEFAULT_INTER_MS = 2000;
const DEFAULT_FALL = 3;
const DEFAULT_RISE = 2;
const DEFAULT_RETRIES = 3;
/** Every request of a test is small: a bigger body means something ran away. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Headers that belong to one connection, not to the request or answer passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** One `server` line with the `default-server` options under its own. */
export interface BackendServer {
  name: string;
  /** `host:port` as the file writes it (a compose service name: the test says where it really is). */
  address: string;
  /** `check`: health-checked; a server without it is never taken out. */
  checked: boolean;
  interMs: number;
  fall: number;
  rise: number;
}

/** What the balancer does, as a backend of haproxy.cfg says it. */
export interface BalancingRules {
  checkMethod: string;
  checkPath: string;
  /** `http-check expect status N`; without it HAProxy takes any 2xx or 3xx. */
  expectStatus: number | undefined;
  forwardFor: boolean;
  retries: number;
  redispatch: boolean;
  servers: BackendServer[];
}

/** The directives of the `defaults` sections and of the one backend, in order. */
function backendDirectives(lines: readonly string[]): string[] {
  const out: string[] = [];
  let section = '';
  let backends = 0;
  for (const line of lines) {
    const head = /^(global|defaults|frontend|backend|listen|resolvers|peers|userlist|program|http-errors|ring|cache)\b/.exec(line);
    if (head !== null) {
      section = head[1]!;
      if (section === 'backend' || section === 'listen') backends++;
      continue;
    }
    if (section === 'defaults' || section === 'backend' || section === 'listen') out.push(line);
  }
  if (backends !== 1) throw new Error(`haproxy.cfg has ${backends} backends: this balancer serves one`);
  return out;
}

/** `check`, `inter`, `fall`, `rise` among a server line's options, over `base`. */
function serverOptions(words: readonly string[], base: Omit<BackendServer, 'name' | 'address'>): Omit<BackendServer, 'name' | 'address'> {
  const options = { ...base };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === 'check') options.checked = true;
    else if (word === 'no-check') options.checked = false;
    else if (word === 'inter') options.interMs = haproxyTimeMs(words[++i] ?? '');
    else if (word === 'fall') options.fall = Number(words[++i]);
    else if (word === 'rise') options.rise = Number(words[++i]);
  }
  return options;
}

/** The rules of haproxy.cfg's backend; throws on a way of balancing this balancer does not do. */
export function balancingRules(lines: readonly string[]): BalancingRules {
  const directives = backendDirectives(lines);
  const words = (prefix: string): string[][] => directives.filter((line) => line === prefix || line.startsWith(`${prefix} `)).map((line) => line.slice(prefix.length).trim().split(/\s+/).filter((w) => w !== ''));
  const last = (prefix: string): string[] | undefined => words(prefix).at(-1);

  const balance = last('balance')?.[0] ?? 'roundrobin';
  if (balance !== 'source') throw new Error(`haproxy.cfg balances by "${balance}": this balancer does "source" only`);
  const httpchk = last('option httpchk');
  if (httpchk === undefined || httpchk.length < 2) throw new Error('haproxy.cfg has no "option httpchk <method> <path>": this balancer checks over HTTP only');
  const expect = last('http-check expect');
  if (expect !== undefined && expect[0] !== 'status') throw new Error(`haproxy.cfg expects "${expect.join(' ')}": this balancer checks a status only`);

  let base: Omit<BackendServer, 'name' | 'address'> = { checked: false, interMs: DEFAULT_INTER_MS, fall: DEFAULT_FALL, rise: DEFAULT_RISE };
  const servers: BackendServer[] = [];
  for (const line of directives) {
    const [keyword, ...rest] = line.split(/\s+/);
    if (keyword === 'default-server') base = serverOptions(rest, base);
    if (keyword === 'server') servers.push({ name: rest[0]!, address: rest[1]!, ...serverOptions(rest.slice(2), base) });
  }
  return {
    checkMethod: httpchk[0]!,
    checkPath: httpchk[1]!,
    expectStatus: expect === undefined ? undefined : Number(expect[1]),
    forwardFor: last('option forwardfor') !== undefined,
    retries: Number(last('retries')?.[0] ?? DEFAULT_RETRIES),
    redispatch: last('option redispatch') !== undefined,
    servers,
  };
}

/** `balance source` as rendezvous hashing: a client goes to the up server with the highest score. */
function score(client: string, server: string): string {
  return createHash('sha256').update(`${client}\n${server}`).digest('hex');
}

/** The server `client` goes to while every server is up. */
export function serverOf(rules: BalancingRules, client: string): BackendServer {
  const [first, ...others] = rules.servers;
  if (first === undefined) throw new Error('haproxy.cfg has no server');
  return others.reduce((best, server) => (score(client, server.name) > score(client, best.name) ? server : best), first);
}

/** A server of the backend, where it really is, and what its health checks have found. */
interface ServerState extends BackendServer {
  host: string;
  port: number;
  up: boolean;
  /** Consecutive failed checks while up, consecutive good ones while down. */
  streak: number;
  timer: NodeJS.Timeout | undefined;
}

/** The peer's address as a client of the balancer, IPv4-mapped IPv6 written as IPv4. */
function peerAddress(socket: Socket): string {
  return (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

/** The whole body, or undefined past MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

/** HAProxy's own answer when it has none from a node. */
function answerItself(res: ServerResponse, status: 502 | 503 | 413): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(`${status} from the load balancer\n`);
}

export class LoadBalancer {
  /** Changes after every health check: wait on it with `watch.until`. */
  readonly watch = new Watch();
  private readonly tunnels = new Set<Socket>();
  private closing = false;

  private constructor(
    private readonly rules: BalancingRules,
    private readonly servers: readonly ServerState[],
    private readonly sourceAddress: string,
    private readonly server: Server,
  ) {}

  /**
   * Listens on 127.0.0.1 (a free port) in front of `targets` (server name of the file → the node's
   * URL) and starts the health checks; every server starts up, as in HAProxy. The balancer
   * connects to the nodes from `sourceAddress`.
   */
  static async start(rules: BalancingRules, targets: ReadonlyMap<string, string>, sourceAddress: string): Promise<LoadBalancer> {
    const servers = rules.servers.map((server): ServerState => {
      const target = targets.get(server.name);
      if (target === undefined) throw new Error(`no node for server ${server.name} (${server.address}) of haproxy.cfg`);
      const url = new URL(target);
      return { ...server, host: url.hostname, port: Number(url.port), up: true, streak: 0, timer: undefined };
    });
    const server = createServer();
    const balancer = new LoadBalancer(rules, servers, sourceAddress, server);
    server.on('request', (req, res) => void balancer.onRequest(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => void balancer.onUpgrade(req, socket, head));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    for (const state of servers) if (state.checked) void balancer.check(state);
    return balancer;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether the health checks have server `name` in service. */
  isUp(name: string): boolean {
    const state = this.servers.find((server) => server.name === name);
    if (state === undefined) throw new Error(`no server ${name}`);
    return state.up;
  }

  /** Stops the checks, ends every connection and tunnel, and stops listening. */
  async close(): Promise<void> {
    this.closing = true;
    for (const state of this.servers) clearTimeout(state.timer);
    for (const socket of this.tunnels) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** One health check of `state`, then the next one `inter` later: `fall` failures in a row take it out, `rise` successes bring it back. */
  private async check(state: ServerState): Promise<void> {
    const healthy = await this.probe(state);
    if (this.closing) return;
    if (healthy === state.up) state.streak = 0;
    else if (++state.streak >= (state.up ? state.fall : state.rise)) {
      state.up = healthy;
      state.streak = 0;
    }
    this.watch.changed();
    state.timer = setTimeout(() => void this.check(state), state.interMs);
  }

  /** The check's request; a check gets `inter` to answer, as HAProxy's without `timeout check`. */
  private probe(state: ServerState): Promise<boolean> {
    return new Promise((resolve) => {
      const req = request({ host: state.host, port: state.port, method: this.rules.checkMethod, path: this.rules.checkPath, localAddress: this.sourceAddress, agent: false, timeout: state.interMs }, (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        resolve(this.rules.expectStatus === undefined ? status >= 200 && status < 400 : status === this.rules.expectStatus);
      });
      req.on('timeout', () => req.destroy(new Error('check timed out')));
      req.on('error', () => resolve(false));
      req.end();
    });
  }

  /** The up server that `client` hashes to, among those not in `excluded`. */
  private pick(client: string, excluded: ReadonlySet<string>): ServerState | undefined {
    let best: { state: ServerState; score: string } | undefined;
    for (const state of this.servers) {
      if (!state.up || excluded.has(state.name)) continue;
      const points = score(client, state.name);
      if (best === undefined || points > best.score) best = { state, score: points };
    }
    return best?.state;
  }

  /**
   * Tries `attempt` on the client's server and, while a connection cannot be made, up to `retries`
   * times more, on another up server when there is one (`option redispatch`). False when none could be reached.
   */
  private async tryServers(client: string, attempt: (state: ServerState) => Promise<'connected' | 'not connected'>): Promise<boolean> {
    const refused = new Set<string>();
    for (let tries = 0; tries <= this.rules.retries; tries++) {
      const state = this.pick(client, this.rules.redispatch ? refused : new Set()) ?? this.pick(client, new Set());
      if (state === undefined) return false;
      if ((await attempt(state)) === 'connected') return true;
      refused.add(state.name);
    }
    return false;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client gone before its body ended is owed nothing.
    const body = await readBody(req).catch(() => null);
    if (body === null) return;
    if (body === undefined) return answerItself(res, 413);
    const client = peerAddress(req.socket);
    const headers = endToEnd(req.headers);
    // After what earlier proxies wrote: the node reads the header from its end.
    if (this.rules.forwardFor) headers['x-forwarded-for'] = headers['x-forwarded-for'] === undefined ? client : `${headers['x-forwarded-for']}, ${client}`;
    // The body is passed on whole, so its length is known (a chunked one is sent with it).
    if (body.length > 0 || headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
    const served = await this.tryServers(client, (state) => this.forward(state, req, headers, body, res));
    if (!served) answerItself(res, 503);
  }

  /** One attempt of a request on `state`; once connected, its answer (or a 502) is the client's. */
  private forward(state: ServerState, req: IncomingMessage, headers: IncomingHttpHeaders, body: Buffer, res: ServerResponse): Promise<'connected' | 'not connected'> {
    return new Promise((resolve) => {
      let connected = false;
      const upstream = request({ host: state.host, port: state.port, method: req.method, path: req.url, headers, localAddress: this.sourceAddress, agent: false });
      upstream.on('socket', (socket) => socket.once('connect', () => (connected = true)));
      upstream.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        resolve('connected');
      });
      upstream.on('error', () => {
        if (!connected) return resolve('not connected');
        // It reached the node, which then failed it (a kill -9 mid-request): never sent twice.
        answerItself(res, 502);
        resolve('connected');
      });
      upstream.end(body);
    });
  }

  private async onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): Promise<void> {
    this.tunnels.add(socket);
    socket.once('close', () => this.tunnels.delete(socket));
    socket.on('error', () => socket.destroy());
    const client = peerAddress(socket);
    // The upgrade request as it came, plus one X-Forwarded-For line, as HAProxy adds it.
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    if (this.rules.forwardFor) lines.push(`X-Forwarded-For: ${client}`);
    const requestHead = `${lines.join('\r\n')}\r\n\r\n`;
    const tunnelled = await this.tryServers(client, (state) => this.tunnel(state, socket, requestHead, head));
    if (!tunnelled) socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  }

  /** Connects to `state` and, once connected, joins the two sockets: the node answers the upgrade itself. */
  private tunnel(state: ServerState, socket: Socket, requestHead: string, head: Buffer): Promise<'connected' | 'not connected'> {
    return new Promise((resolve) => {
      const upstream = connect({ host: state.host, port: state.port, localAddress: this.sourceAddress });
      upstream.once('error', () => resolve('not connected'));
      upstream.once('connect', () => {
        this.tunnels.add(upstream);
        upstream.once('close', () => {
          this.tunnels.delete(upstream);
          socket.destroy();
        });
        upstream.on('error', () => upstream.destroy());
        socket.once('close', () => upstream.destroy());
        upstream.write(requestHead);
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
        resolve('connected');
      });
    });
  }
}
