import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';

/**
 * A real redis-server of the test's own, on its own port, that the test can stop, restart and
 * freeze: the outside world as a Paydesk instance meets it. Nothing is kept on disk.
 */
export interface LocalRedis {
  readonly url: string;
  start(): Promise<void>;
  /** SIGKILL: the server is gone at once, mid-conversation. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the server keeps its connections but answers nothing (a hung host). */
  freeze(): void;
  thaw(): void;
  /** The keys it holds right now matching `pattern`. */
  keys(pattern: string): Promise<string[]>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function localRedis(port: number): LocalRedis {
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const client = () =>
    new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  return {
    url,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      const started = spawn('redis-server', args, { stdio: 'ignore' });
      running.add(started);
      started.once('exit', () => running.delete(started));
      child = started;
      const deadline = Date.now() + 10_000;
      for (;;) {
        const c = client();
        c.on('error', () => {});
        const pong = await c
          .connect()
          .then(() => c.ping())
          .catch(() => undefined)
          .finally(() => c.disconnect());
        if (pong === 'PONG') return;
        if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async kill() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGCONT');
      c.kill('SIGKILL');
      await exited;
    },
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    async keys(pattern) {
      const c = client();
      c.on('error', () => {});
      await c.connect();
      try {
        return await c.keys(pattern);
      } finally {
        c.disconnect();
      }
    },
  };
}
