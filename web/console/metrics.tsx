/** Metrics: a glance at a few series of `/metrics` (Prometheus text), refreshed while the section is in view. */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Panel } from './ui.js';

const REFRESH_MS = 5000;

/** Every sample's value, summed over its labels, by series name. */
export function parseMetrics(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{.*\})?\s+(\S+)/u.exec(line);
    if (match === null) continue;
    const value = Number(match[2]);
    if (!Number.isFinite(value)) continue;
    series.set(match[1] ?? '', (series.get(match[1] ?? '') ?? 0) + value);
  }
  return series;
}

interface Sample {
  at: number;
  series: Map<string, number>;
}

interface Tile {
  label: string;
  value: string;
  detail?: string;
}

const count = (n: number | undefined): string => (n === undefined ? '—' : String(n));
const fixed = (n: number, digits: number): string => n.toFixed(digits);

function uptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return m > 0 ? `${m} min ${seconds % 60} s` : `${seconds} s`;
}

function tiles(now: Sample, before: Sample | undefined): Tile[] {
  const s = now.series;
  const perSecond = (name: string): string | undefined => {
    const a = before?.series.get(name);
    const b = s.get(name);
    if (before === undefined || a === undefined || b === undefined || now.at <= before.at) return undefined;
    return `${fixed(((b - a) * 1000) / (now.at - before.at), 1)}/s lately`;
  };
  const out: Tile[] = [
    { label: 'Open orders', value: count(s.get('bourse_open_orders')), detail: 'resting in the books' },
    { label: 'Commands journaled', value: count(s.get('bourse_commands_total')), detail: perSecond('bourse_commands_total') },
    { label: 'Batches committed', value: count(s.get('bourse_batch_size_count')), detail: perSecond('bourse_batch_size_count') },
    { label: 'Open connections', value: count(s.get('bourse_connections')), detail: 'HTTP and WebSocket' },
  ];
  // Series that later versions of the server may export: shown when present.
  for (const [name, label] of [
    ['bourse_trades_total', 'Trades'],
    ['bourse_orders_total', 'Orders placed'],
    ['bourse_http_requests_total', 'HTTP requests'],
  ] as const) {
    if (s.has(name)) out.push({ label, value: count(s.get(name)), detail: perSecond(name) });
  }
  const latencySum = s.get('bourse_commit_latency_seconds_sum');
  const latencyCount = s.get('bourse_commit_latency_seconds_count');
  if (latencySum !== undefined && latencyCount !== undefined && latencyCount > 0) {
    out.push({ label: 'Commit latency', value: `${fixed((latencySum / latencyCount) * 1000, 3)} ms`, detail: 'mean per batch since start' });
  }
  const memory = s.get('process_resident_memory_bytes');
  if (memory !== undefined) out.push({ label: 'Memory (RSS)', value: `${fixed(memory / 1048576, 1)} MiB` });
  const lag = s.get('nodejs_eventloop_lag_seconds');
  if (lag !== undefined) out.push({ label: 'Event-loop lag', value: `${fixed(lag * 1000, 2)} ms` });
  const started = s.get('process_start_time_seconds');
  if (started !== undefined) {
    const seconds = Math.max(0, Math.floor(now.at / 1000 - started));
    out.push({ label: 'Uptime', value: uptime(seconds) });
  }
  return out;
}

export function MetricsSection(): JSX.Element {
  const [sample, setSample] = useState<Sample | undefined>(undefined);
  const previous = useRef<Sample | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async (): Promise<void> => {
      if (document.visibilityState === 'visible') {
        try {
          const response = await fetch('/metrics');
          if (!response.ok) throw new Error(`/metrics answered HTTP ${response.status}`);
          const next = { at: Date.now(), series: parseMetrics(await response.text()) };
          if (!live) return;
          setSample((current) => {
            previous.current = current;
            return next;
          });
          setError(undefined);
        } catch (failure) {
          if (live) setError(failure instanceof Error ? failure.message : String(failure));
        }
      }
      if (live) timer = setTimeout(() => void load(), REFRESH_MS);
    };
    const onVisible = (): void => {
      if (document.visibilityState !== 'visible' || !live) return;
      clearTimeout(timer);
      void load();
    };
    void load();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  return (
    <div class="section-grid">
      <Panel title="Metrics at a glance">
        <p class="muted">
          From <a href="/metrics">/metrics</a> (Prometheus text), every {REFRESH_MS / 1000} s while this section is open.
          {sample === undefined ? '' : ` Updated ${new Date(sample.at).toISOString()}.`}
        </p>
        {error === undefined ? null : (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {sample === undefined ? null : (
          <ul class="tiles" aria-label="Metrics">
            {tiles(sample, previous.current).map((t) => (
              <li key={t.label} class="tile">
                <span class="tile-label">{t.label}</span>
                <span class="tile-value" data-metric={t.label}>
                  {t.value}
                </span>
                {t.detail === undefined ? null : <span class="tile-detail">{t.detail}</span>}
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
