import { CandlestickSeries, ColorType, createChart, type CandlestickData, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { onThemeChange } from '../shared/theme.js';
import { useStore } from '../shared/store.js';
import { barListeners, interval, INTERVALS, loadBars, selected, selectInterval, type Bar, type Interval } from './state.js';

// The chart's series is numeric: the one place prices become Number().
function candle(bar: Bar): CandlestickData<UTCTimestamp> {
  return { time: (bar.time / 1000) as UTCTimestamp, open: Number(bar.open), high: Number(bar.high), low: Number(bar.low), close: Number(bar.close) };
}

function colors() {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return { text: read('--muted'), grid: read('--border'), up: read('--buy'), down: read('--sell'), surface: read('--surface') };
}

function styleChart(chart: IChartApi, series: ISeriesApi<'Candlestick'>): void {
  const c = colors();
  chart.applyOptions({
    layout: { background: { type: ColorType.Solid, color: c.surface }, textColor: c.text, attributionLogo: false },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    rightPriceScale: { borderColor: c.grid },
    timeScale: { borderColor: c.grid, timeVisible: true, secondsVisible: false },
  });
  series.applyOptions({ upColor: c.up, downColor: c.down, borderUpColor: c.up, borderDownColor: c.down, wickUpColor: c.up, wickDownColor: c.down });
}

/** Candles: history from REST klines, then the kline stream's bars as they change. */
export function Chart() {
  const symbol = useStore(selected);
  const current = useStore(interval);
  const box = useRef<HTMLDivElement>(null);
  const api = useRef<{ chart: IChartApi; series: ISeriesApi<'Candlestick'> } | null>(null);
  const [status, setStatus] = useState('');

  useEffect(() => {
    const el = box.current;
    if (el === null) return undefined;
    const chart = createChart(el, { autoSize: true });
    const series = chart.addSeries(CandlestickSeries, {});
    styleChart(chart, series);
    api.current = { chart, series };
    // The CSS variables change a frame after the data-theme attribute does.
    const off = onThemeChange(() => requestAnimationFrame(() => styleChart(chart, series)));
    return () => {
      off();
      chart.remove();
      api.current = null;
    };
  }, []);

  useEffect(() => {
    if (symbol === '') return undefined;
    let live = true;
    let loaded = false;
    const early: Bar[] = [];
    const listener = (barSymbol: string, barInterval: string, bars: Bar[]) => {
      if (barSymbol !== symbol || barInterval !== current) return;
      if (!loaded) early.push(...bars);
      else for (const bar of bars) api.current?.series.update(candle(bar));
    };
    barListeners.add(listener);
    setStatus('Loading…');
    api.current?.series.setData([]);
    loadBars(symbol, current)
      .then((bars) => {
        if (!live) return;
        const byTime = new Map<number, Bar>();
        for (const bar of [...bars, ...early]) byTime.set(bar.time, bar);
        const all = [...byTime.values()].sort((a, b) => a.time - b.time);
        api.current?.series.setData(all.map(candle));
        api.current?.chart.timeScale().fitContent();
        loaded = true;
        setStatus(all.length === 0 ? 'No trades yet.' : '');
      })
      .catch((error: unknown) => live && setStatus(`Could not load the chart: ${error instanceof Error ? error.message : String(error)}`));
    return () => {
      live = false;
      barListeners.delete(listener);
    };
  }, [symbol, current]);

  return (
    <section class="panel chart-panel" aria-labelledby="chart-title">
      <div class="chart-head">
        <h2 class="panel-title" id="chart-title">
          Chart
        </h2>
        <label class="inline-field">
          <span class="visually-hidden">Interval</span>
          <select aria-label="Interval" value={current} onChange={(event) => selectInterval((event.target as HTMLSelectElement).value as Interval)}>
            {INTERVALS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        {status === '' ? null : (
          <span class="muted chart-status" role="status">
            {status}
          </span>
        )}
      </div>
      <div class="chart" ref={box} role="img" aria-label={`Candlestick chart of ${symbol}, ${current} bars`} />
    </section>
  );
}
