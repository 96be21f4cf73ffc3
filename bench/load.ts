import autocannon from 'autocannon';
import { sampleCpu, sampleRss } from './processes.js';

export interface LoadSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export interface LoadRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface Measurement {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses outside 2xx, connection errors and timeouts: any of them makes the numbers suspect. */
  failures: number;
  statusCodes: Record<string, number>;
  /** Peak RSS of the measured server during the run, when it was sampled. */
  maxRssBytes?: number;
  /**
   * CPU microseconds per request of the server process, of all PostgreSQL processes, and of the load
   * generator (autocannon, in this process): on two cores the three share the machine, so the load
   * generator's own cost bounds every ratio (bench/README.md, "Stop 42").
   */
  cpu: { serverUs: number; databaseUs: number; loadUs: number };
}

/**
 * One closed-loop autocannon run (every connection sends its next request as soon as the previous
 * answers), after a warm-up at the same concurrency that lets the JIT and the pools settle. The
 * server's pid is sampled for RSS (peak, warm-up included) and CPU (the measured part only).
 */
export async function measure(
  settings: LoadSettings,
  request: LoadRequest,
  pid: number,
): Promise<Measurement> {
  const load = (seconds: number) =>
    autocannon({
      url: request.url,
      method: request.method ?? 'GET',
      headers: request.headers ?? {},
      ...(request.body === undefined ? {} : { body: request.body }),
      connections: settings.connections,
      duration: seconds,
    });
  const rss = sampleRss(pid);
  try {
    if (settings.warmupSeconds > 0) await load(settings.warmupSeconds);
    const cpu = sampleCpu(pid);
    const own = process.cpuUsage();
    const result = await load(settings.seconds);
    const ownCpu = process.cpuUsage(own);
    const statusCodes = Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
    );
    return {
      rps: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      failures: result.non2xx + result.errors + result.timeouts,
      statusCodes,
      maxRssBytes: rss.stop(),
      cpu: {
        ...cpu.stop(result.requests.total),
        loadUs: (ownCpu.user + ownCpu.system) / Math.max(1, result.requests.total),
      },
    };
  } finally {
    rss.stop();
  }
}
