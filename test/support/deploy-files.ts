/**
 * Readers of the files that ship for deployments (deploy/, the Dockerfile), each read as its own
 * tool reads it, without those tools: compose.yaml by indentation (no YAML parser is a dependency,
 * and its two-space block style makes that exact), the env file as Compose reads it, the
 * Dockerfile's instructions, haproxy.cfg's directives. test/unit/deploy-files.test.ts checks the
 * files against the server with them; test/e2e/cluster/compose-topology.test.ts starts what they describe.
 */

// --- compose.yaml, read by indentation -------------------------------------------------------

export interface YamlLine {
  indent: number;
  text: string;
}

/** Lines that hold something: blank and comment lines dropped (compose.yaml puts no comment after a value). */
export function yamlLines(text: string): YamlLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    .map((line) => ({ indent: line.length - line.trimStart().length, text: line.trim() }));
}

/** The lines nested under `key:` among `lines`' outermost entries. */
export function child(lines: readonly YamlLine[], key: string): YamlLine[] {
  const outer = Math.min(...lines.map((line) => line.indent));
  const start = lines.findIndex((line) => line.indent === outer && (line.text === `${key}:` || line.text.startsWith(`${key}: `)));
  if (start < 0) return [];
  const block: YamlLine[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.indent <= outer) break;
    block.push(line);
  }
  return block;
}

/** `key: value` pairs among `lines`' outermost entries, quotes removed. */
export function entries(lines: readonly YamlLine[]): Map<string, string> {
  const out = new Map<string, string>();
  if (lines.length === 0) return out;
  const outer = Math.min(...lines.map((line) => line.indent));
  for (const line of lines) {
    const match = /^([^\s:][^:]*):(?:\s+(.*))?$/.exec(line.text);
    if (line.indent === outer && match) out.set(match[1]!, (match[2] ?? '').replace(/^"(.*)"$/, '$1'));
  }
  return out;
}

/** `- item` entries among `lines`' outermost entries. */
export function items(lines: readonly YamlLine[]): string[] {
  return lines.filter((line) => line.text.startsWith('- ')).map((line) => line.text.slice(2).replace(/^"(.*)"$/, '$1'));
}

// --- an env file, as Compose reads it --------------------------------------------------------

/** `KEY=value` lines as Compose reads them: a double-quoted value has its `\n` turned into line breaks. */
export function envFile(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'))) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`not a KEY=value line: ${line.slice(0, 40)}`);
    const quoted = /^"(.*)"$/.exec(match[2]!);
    out.set(match[1]!, quoted ? quoted[1]!.replaceAll('\\n', '\n') : match[2]!);
  }
  return out;
}

// --- the Dockerfile ------------------------------------------------------------------------------

/** Its instructions, one a line: continued lines joined, comments and blank lines dropped. */
export function dockerfileInstructions(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** The instructions of the last stage: what the image runs. */
export function lastStage(instructions: readonly string[]): string[] {
  return instructions.slice(instructions.map((line) => line.startsWith('FROM ')).lastIndexOf(true));
}

/** `ENV A=1 B=2` instructions of `stage` as pairs. */
export function dockerfileEnv(stage: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stage.filter((l) => l.startsWith('ENV '))) {
    for (const pair of line.slice('ENV '.length).trim().split(/\s+/)) {
      const [key, value] = pair.split('=');
      out.set(key!, value ?? '');
    }
  }
  return out;
}

// --- haproxy.cfg -------------------------------------------------------------------------------

/** Its directives, one a line, trimmed: comments and blank lines dropped. */
export function haproxyLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}

const TIME_UNITS_MS: Readonly<Record<string, number>> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A time of haproxy.cfg (`1s`, `500ms`; a bare number is milliseconds) in milliseconds. */
export function haproxyTimeMs(value: string): number {
  const match = /^(\d+)(us|ms|s|m|h|d)?$/.exec(value);
  if (match === null) throw new Error(`not a HAProxy time: ${JSON.stringify(value)}`);
  return Number(match[1]) * TIME_UNITS_MS[match[2] ?? 'ms']!;
}
