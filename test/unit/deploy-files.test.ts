/**
 * What ships for deployments (docs/deployment.md, the Dockerfile, deploy/) agrees with the server it
 * deploys, checked without Docker: the variables they set are ones the server reads, the programs
 * they start are the ones the build makes, the health checks ask /health, the secrets script writes
 * keys the server accepts, and the page's links lead somewhere. The files are read as their tools
 * read them, without those tools (test/support/deploy-files.ts).
 */
import { createPrivateKey } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SEMI_SPACE_MB } from '../../src/young-generation.js';
import { REPO, runChild } from '../support/child-run.js';
import { child, dockerfileEnv, dockerfileInstructions, entries, envFile, haproxyLines, haproxyTimeMs, items, lastStage, yamlLines, type YamlLine } from '../support/deploy-files.js';

const read = (file: string): string => readFileSync(path.join(REPO, file), 'utf8');
const DEFAULTS = loadConfig({});

/** Every environment variable src/config.ts names: `BOURSE_*` wherever it appears, others as `env.NAME`. */
function configVariables(): Set<string> {
  const source = read('src/config.ts');
  const names = new Set<string>();
  for (const match of source.matchAll(/\b(BOURSE_[A-Z0-9_]+)\b/g)) names.add(match[1]!);
  for (const match of source.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
  return names;
}

// --- compose.yaml --------------------------------------------------------------------------

const compose = yamlLines(read('deploy/compose.yaml'));
const services = child(compose, 'services');
const anchor = child(compose, 'x-bourse');
const NODES = ['bourse-1', 'bourse-2'];

/** A Bourse node's service as Compose sees it: the anchor's entries merged under its own. */
function node(name: string): YamlLine[] {
  const own = child(services, name);
  expect(own.some((line) => line.text === '<<: *bourse'), `${name} merges x-bourse`).toBe(true);
  return own;
}

function nodeEnvironment(name: string): Map<string, string> {
  return entries(child(node(name), 'environment'));
}

// --- the env file deploy/new-secrets.sh writes -------------------------------------------------

const secretsDir = mkdtempSync(path.join(tmpdir(), 'bourse-secrets-'));
afterAll(() => rmSync(secretsDir, { recursive: true, force: true }));
const makeSecrets = (): ReturnType<typeof runChild> =>
  runChild('sh', ['deploy/new-secrets.sh', secretsDir], { env: {}, deadlineMs: 20_000 });

// --- the Dockerfile -----------------------------------------------------------------------------

const dockerfile = dockerfileInstructions(read('Dockerfile'));
const instructions = (name: string): string[] =>
  dockerfile.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1).trim());
/** The last stage: what the image runs. */
const runtime = lastStage(dockerfile);
const runtimeInstruction = (name: string): string[] =>
  runtime.filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1).trim());
const dockerEnv = (): Map<string, string> => dockerfileEnv(runtime);

/** A `.dockerignore` of top-level names only (`*`, `name`, `!name`), read as Docker does: the last pattern that matches decides. */
function dockerContext(): (file: string) => boolean {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  for (const pattern of patterns) expect(pattern, 'a pattern this check can read').toMatch(/^!?(\*|[\w.-]+)$/);
  return (file) => {
    let included = true;
    for (const pattern of patterns) {
      const name = pattern.replace(/^!/, '');
      if (name === '*' || file === name || file.startsWith(`${name}/`)) included = pattern.startsWith('!');
    }
    return included;
  };
}

// --- docs/deployment.md ----------------------------------------------------------------------------

const deploymentDoc = read('docs/deployment.md');

/** Rows of the table under `## <heading>`: their first cell's names in backquotes. */
function tableVariables(markdown: string, heading: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((match) => slug(match[1]!)));
}

// -----------------------------------------------------------------------------------------------------

describe('deploy/compose.yaml', () => {
  it('when read, then it is two-space block YAML with PostgreSQL, two Bourse nodes and HAProxy', () => {
    const raw = read('deploy/compose.yaml');
    expect(raw).not.toContain('\t');
    for (const line of compose) expect(line.indent % 2, line.text).toBe(0);
    expect([...entries(services).keys()]).toEqual(['postgres', ...NODES, 'haproxy']);
    expect([...entries(compose).keys()]).toEqual(expect.arrayContaining(['services', 'volumes', 'secrets', 'networks']));
  });

  it('when PostgreSQL is read, then it is version 17 with a volume and a health check the nodes wait for', () => {
    const postgres = child(services, 'postgres');
    expect(entries(postgres).get('image')).toBe('postgres:17');
    expect(items(child(postgres, 'volumes'))[0]).toMatch(/^postgres-data:\/var\/lib\/postgresql\/data$/);
    expect(child(postgres, 'healthcheck').some((line) => line.text.includes('pg_isready'))).toBe(true);
    expect(entries(child(child(anchor, 'depends_on'), 'postgres')).get('condition')).toBe('service_healthy');
  });

  it('when the nodes are read, then both are built from the Dockerfile, share the env file and keep their own data volume', () => {
    expect(entries(child(anchor, 'build')).get('context')).toBe('..');
    expect(existsSync(path.join(REPO, 'deploy', '..', 'Dockerfile'))).toBe(true);
    expect(entries(anchor).get('env_file')).toBe('bourse.env');
    const declaredVolumes = new Set(entries(child(compose, 'volumes')).keys());
    for (const name of NODES) {
      expect(items(child(node(name), 'volumes'))).toEqual([`${name}-data:/data`]);
      expect(declaredVolumes.has(`${name}-data`)).toBe(true);
    }
    expect(dockerEnv().get('BOURSE_DATA')).toBe('/data');
  });

  it('when a node says where it is reached, then it names its own service and the port the image listens on', () => {
    for (const name of NODES) expect(nodeEnvironment(name).get('BOURSE_NODE_URL')).toBe(`http://${name}:${DEFAULTS.port}`);
  });

  it('when the nodes trust a proxy, then it is the address HAProxy is given', () => {
    const haproxyAddress = entries(child(child(child(services, 'haproxy'), 'networks'), 'default')).get('ipv4_address');
    expect(haproxyAddress).toMatch(/^172\.28\.0\.\d+$/);
    for (const name of NODES) expect(nodeEnvironment(name).get('BOURSE_TRUST_PROXY')).toBe(haproxyAddress);
  });

  it('when HAProxy is read, then it publishes port 8080 and mounts deploy/haproxy.cfg', () => {
    const haproxy = child(services, 'haproxy');
    expect(items(child(haproxy, 'ports'))).toEqual(['8080:8080']);
    expect(items(child(haproxy, 'volumes'))).toEqual(['./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro']);
  });
});

describe('deploy/new-secrets.sh', () => {
  it('when run, then it writes the database URL and three secrets the server accepts, readable by the owner alone', async () => {
    const run = await makeSecrets();
    expect(run.exitCode, run.stderr).toBe(0);
    const env = envFile(readFileSync(path.join(secretsDir, 'bourse.env'), 'utf8'));
    expect([...env.keys()].sort()).toEqual(['BOURSE_ADMIN_TOKEN', 'BOURSE_DB', 'BOURSE_SECRET_KEY', 'BOURSE_WEBHOOK_KEY']);
    expect(Buffer.from(env.get('BOURSE_SECRET_KEY')!, 'base64')).toHaveLength(32);
    const webhookKey = env.get('BOURSE_WEBHOOK_KEY')!;
    expect(webhookKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
    expect(createPrivateKey(webhookKey).asymmetricKeyType).toBe('rsa');
    expect(env.get('BOURSE_ADMIN_TOKEN')).toMatch(/^[0-9a-f]{64}$/);

    const postgres = entries(child(child(services, 'postgres'), 'environment'));
    const password = readFileSync(path.join(secretsDir, 'postgres-password'), 'utf8').trim();
    expect(env.get('BOURSE_DB')).toBe(`postgres://${postgres.get('POSTGRES_USER')}:${password}@postgres:5432/${postgres.get('POSTGRES_DB')}`);
    for (const file of ['bourse.env', 'postgres-password']) expect(statSync(path.join(secretsDir, file)).mode & 0o777).toBe(0o600);
  });

  it('when its files exist, then it refuses and leaves them as they were', async () => {
    const before = readFileSync(path.join(secretsDir, 'bourse.env'), 'utf8');
    const run = await makeSecrets();
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('exists: kept');
    expect(readFileSync(path.join(secretsDir, 'bourse.env'), 'utf8')).toBe(before);
  });

  it('when Compose and the secrets are read, then the files the script writes are the ones compose.yaml reads', () => {
    expect(entries(child(child(compose, 'secrets'), 'postgres-password')).get('file')).toBe('./postgres-password');
    expect(entries(anchor).get('env_file')).toBe('bourse.env');
  });
});

describe('environment variables', () => {
  const known = configVariables();
  const unknown = (names: Iterable<string>): string[] => [...names].filter((name) => !known.has(name));

  it('when src/config.ts is read, then the names it reads are found', () => {
    expect(known).toContain('BOURSE_DB');
    expect(known).toContain('PORT');
    expect(known).toContain('HOST');
  });

  it('when the Dockerfile sets variables, then src/config.ts reads each', () => {
    expect(unknown(dockerEnv().keys())).toEqual([]);
  });

  it('when compose.yaml and its env file set variables for a node, then src/config.ts reads each', async () => {
    if (!existsSync(path.join(secretsDir, 'bourse.env'))) expect((await makeSecrets()).exitCode).toBe(0);
    const set = new Set([...NODES.flatMap((name) => [...nodeEnvironment(name).keys()]), ...envFile(readFileSync(path.join(secretsDir, 'bourse.env'), 'utf8')).keys()]);
    expect(unknown(set)).toEqual([]);
  });

  it('when docs/deployment.md lists its settings, then src/config.ts reads each', () => {
    const listed = tableVariables(deploymentDoc, 'Settings');
    expect(listed.length).toBeGreaterThan(10);
    expect(unknown(listed)).toEqual([]);
  });

  it('when compose.yaml sets a variable for a node, then docs/deployment.md or docs/running.md lists it', () => {
    const documented = new Set([...tableVariables(deploymentDoc, 'Settings'), ...tableVariables(read('docs/running.md'), 'Configuration (environment, all optional)')]);
    const set = NODES.flatMap((name) => [...nodeEnvironment(name).keys()]);
    expect(set.filter((name) => !documented.has(name))).toEqual([]);
  });
});

describe('Dockerfile', () => {
  it('when its base images are read, then each is a Node.js version package.json supports', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-bookworm-slim$/m.exec(read('Dockerfile'));
    expect(image).not.toBeNull();
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines.split('||').map((range) => /\^(\d+)\./.exec(range)?.[1])).toContain(image![1]);
    for (const from of instructions('FROM')) expect(from).toMatch(/^\$\{NODE_IMAGE\}( AS \w+)?$/);
  });

  it('when its command is read, then it runs the file `npm run build` compiles from src/main.ts, as `npm start` does', () => {
    // The young generation of src/young-generation.ts, given to Node wherever the server starts:
    // the container, npm start, npm run dev, the bourse command (its first line) and the benches.
    const youngGeneration = `--max-semi-space-size=${SEMI_SPACE_MB}`;
    expect(runtimeInstruction('CMD')).toEqual([`["node", "${youngGeneration}", "dist/main.js"]`]);
    const build = JSON.parse(read('tsconfig.build.json')) as { compilerOptions: { outDir: string; rootDir: string } };
    expect(build.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: 'src' });
    expect(existsSync(path.join(REPO, 'src', 'main.ts'))).toBe(true);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string>; bin: Record<string, string> };
    expect(pkg.scripts.start).toContain(`node ${youngGeneration} dist/main.js`);
    expect(pkg.scripts.dev).toContain(`node ${youngGeneration} --import tsx src/main.ts`);
    expect(pkg.scripts.bench).toContain(`node ${youngGeneration} --import tsx bench/run.ts`);
    expect(read('src/cli/main.ts').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${youngGeneration}`);
    expect(pkg.bin.bourse).toBe('dist/cli/main.js');
    expect(runtime.some((line) => line.includes('ln -s /app/dist/cli/main.js /usr/local/bin/bourse'))).toBe(true);
    expect(instructions('RUN')).toContain('npm run build');
    expect(runtime).toContain('COPY --from=build /app/dist dist');
  });

  it('when its health check is read, then it asks /health on the port the server listens on by default', () => {
    const [healthcheck] = runtimeInstruction('HEALTHCHECK');
    expect(healthcheck).toContain("'/health'");
    expect(healthcheck).toContain(`process.env.PORT||${DEFAULTS.port})`);
    expect(runtimeInstruction('EXPOSE')).toEqual([String(DEFAULTS.port)]);
    expect(dockerEnv().get('PORT')).toBe(String(DEFAULTS.port));
  });

  it('when the image runs, then it listens on every address, keeps its data in a volume and is not root', () => {
    expect(dockerEnv().get('HOST')).toBe('0.0.0.0');
    expect(runtimeInstruction('VOLUME')).toEqual(['/data']);
    const user = runtimeInstruction('USER');
    expect(user).toEqual(['node']);
    expect(runtime.findIndex((line) => line.startsWith('USER '))).toBeLessThan(runtime.findIndex((line) => line.startsWith('CMD ')));
  });

  it('when .dockerignore is read, then the build context holds what the Dockerfile copies and none of the secrets', () => {
    const inContext = dockerContext();
    const sources = instructions('COPY')
      .filter((copy) => !copy.startsWith('--from='))
      .flatMap((copy) => copy.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      expect(existsSync(path.join(REPO, source)), source).toBe(true);
      expect(inContext(source), source).toBe(true);
    }
    for (const kept of ['deploy/bourse.env', 'deploy/postgres-password', 'data/secret.key', 'node_modules', 'dist', '.git']) {
      expect(inContext(kept), kept).toBe(false);
    }
  });
});

describe('deploy/haproxy.cfg', () => {
  const config = haproxyLines(read('deploy/haproxy.cfg'));
  const seconds = (directive: string): number => {
    const line = config.find((l) => l.startsWith(`${directive} `));
    expect(line, directive).toBeDefined();
    return haproxyTimeMs(line!.slice(directive.length + 1)) / 1000;
  };

  it('when its health check is read, then it asks every node GET /health and wants 200', () => {
    expect(config).toContain('option httpchk GET /health');
    expect(config).toContain('http-check expect status 200');
    expect(config.some((line) => line.startsWith('default-server check '))).toBe(true);
  });

  it('when its servers are read, then they are the nodes of compose.yaml on the port they listen on', () => {
    const servers = config.filter((line) => line.startsWith('server ')).map((line) => line.split(/\s+/).slice(1, 3).join(' '));
    expect(servers).toEqual(NODES.map((name) => `${name} ${name}:${DEFAULTS.port}`));
  });

  it('when a request passes, then the client address goes with it and slow writes and idle WebSockets are not cut short', () => {
    expect(config).toContain('option forwardfor');
    expect(seconds('timeout server') * 1000).toBeGreaterThan(DEFAULTS.engineTimeoutMs);
    // Market sockets are closed by the server after 300 s without a client message.
    expect(seconds('timeout tunnel')).toBeGreaterThan(300);
  });
});

describe('docs/deployment.md', () => {
  const links = [...deploymentDoc.replace(/^```[\s\S]*?^```/gm, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);

  it('when its links are followed, then every file exists and every anchor is a heading of its page', () => {
    const broken: string[] = [];
    const local = links.filter((link) => !/^[a-z]+:/.test(link));
    expect(local.length).toBeGreaterThan(10);
    for (const link of local) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? path.join(REPO, 'docs', 'deployment.md') : path.join(REPO, 'docs', file);
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (anchor !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('when read, then it links every file that ships for deployments', () => {
    for (const file of ['../Dockerfile', '../deploy/compose.yaml', '../deploy/haproxy.cfg']) expect(links).toContain(file);
    expect(deploymentDoc).toContain('sh deploy/new-secrets.sh');
  });
});
