import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS, parseBenchArgs, quickEnv, usage, UsageError } from '../../bench/options.js';

function benchSource(name: string): string {
  return readFileSync(new URL(`../../bench/${name}.ts`, import.meta.url), 'utf8');
}

describe('npm run bench options', () => {
  it('when --help is asked, then the usage lists every benchmark and every knob that its module reads', () => {
    const text = usage();
    expect(text).toContain('--quick');
    for (const bench of BENCHMARKS) {
      expect(text).toMatch(new RegExp(`^  ${bench.name} `, 'm'));
      const source = benchSource(bench.name);
      for (const knob of bench.knobs) {
        expect(text).toContain(knob.name);
        expect(source, `bench/${bench.name}.ts reads ${knob.name}`).toContain(knob.name);
      }
    }
    // Every BENCH_* variable a benchmark reads is in the usage.
    for (const bench of BENCHMARKS) {
      for (const name of benchSource(bench.name).match(/BENCH_[A-Z_]+/g) ?? []) expect(text).toContain(name);
    }
  });

  it('when the arguments are parsed, then --help, -h and --quick are options and anything else dashed is refused', () => {
    expect(parseBenchArgs(['--quick', 'engine', 'http'])).toEqual({ help: false, quick: true, names: ['engine', 'http'] });
    expect(parseBenchArgs(['-h']).help).toBe(true);
    expect(() => parseBenchArgs(['--fast'])).toThrow(UsageError);
  });

  it('when --quick is given, then knobs already set in the environment are kept', () => {
    const quick = quickEnv({ BENCH_ENGINE_COMMANDS: '5000' });
    expect(quick.BENCH_ENGINE_COMMANDS).toBeUndefined();
    expect(quick.BENCH_REPLAY_COMMANDS).toBe('10000');
    expect(quick.BENCH_HTTP_PROFILE).toBeUndefined();
  });
});
