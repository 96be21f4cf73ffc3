// The few parts of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    title?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    warmup?: { connections?: number; duration?: number };
  }
  interface Stats {
    average: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }
  interface Result {
    title?: string;
    /** Per-second samples of completed requests. */
    requests: Stats & { sent: number };
    /** Milliseconds, 2xx responses only, whole-millisecond resolution. */
    latency: Stats;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
