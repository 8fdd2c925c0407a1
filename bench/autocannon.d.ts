/** The part of autocannon 8 (which ships no types) that bench/http.ts uses. */
declare module 'autocannon' {
  /** Per-connection scratch object, cleared each time a connection starts its `requests` over. */
  export type RequestContext = Record<string, unknown>;

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface Request extends RequestParams {
    /** Called before each send of this request; returns the request to send (a falsy value restarts the sequence). */
    setupRequest?: (request: RequestParams, context: RequestContext) => RequestParams | null;
    onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string>) => void;
  }

  export interface Options extends RequestParams {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    requests?: Request[];
    /** Return the run's raw counters and encoded histograms, for `aggregateResult` over several runs. */
    skipAggregateResult?: boolean;
  }

  /** Percentiles of an hdr-histogram; latency in milliseconds, requests and throughput per second. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    p99_99: number;
    p99_999: number;
  }

  export interface Result {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram & { totalCount: number };
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  /** One run's figures before aggregation (histograms encoded). */
  export interface RawResult {
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    resets: number;
    totalCompletedRequests: number;
    totalRequests: number;
    totalBytes: number;
    statusCodeStats: Record<string, { count: number }>;
    latencies: string;
    requests: string;
    throughput: string;
  }

  export interface Instance<T> extends PromiseLike<T> {
    stop(): void;
  }

  function autocannon(options: Options & { skipAggregateResult: true }): Instance<RawResult>;
  function autocannon(options: Options): Instance<Result>;

  namespace autocannon {
    /** Merges raw results; the first one's `statusCodeStats` object is updated in place and `duration` is the first one's. */
    function aggregateResult(results: RawResult[], options: Options): Result;
  }

  export default autocannon;
}
