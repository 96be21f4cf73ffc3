/**
 * Background work, declared by the feature that owns it (expiry, webhook delivery, chain scanning,
 * purges) and run by runner.ts, which owns everything around the work itself: the loop, wake-ups by
 * LISTEN/NOTIFY, backoff after failures, one-instance-at-a-time leadership and a graceful stop. All
 * state lives in the database, so a restart picks up exactly where a job left off.
 */
export interface Job {
  name: string;
  /** While idle, look for work this often. */
  intervalMs: number;
  /** A NOTIFY on this channel, from any instance, runs the job at once (or after `wakeDelayMs`). */
  wakeOn?: string;
  /**
   * How long a notification waits before it runs the job, gathering the notifications that follow it
   * into one round: for a job woken by every write of a busy table (webhooks, by every new event).
   */
  wakeDelayMs?: number;
  /** Run by one instance at a time (the holder of an advisory lock named after the job); others stand by. */
  exclusive?: boolean;
  /** One round of work. Resolves true when more is waiting, so the job runs again at once. */
  run(context: JobContext): Promise<boolean>;
  /** On stop, after the last round: finish, or hand back, work the job started and did not await. */
  drain?(): Promise<void>;
}

export interface JobContext {
  /** Aborted when the process begins to stop. */
  signal: AbortSignal;
  /** Runs the job again as soon as the current round ends (a slot freed up, say). */
  wake(): void;
}
