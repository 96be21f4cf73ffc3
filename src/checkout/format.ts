const DATE_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "21 Nov 2026, 10:04 UTC": payers are anywhere, and the server does not know their time zone. */
export function formatDateTime(d: Date): string {
  return `${DATE_TIME.format(d)} UTC`;
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Time left as mm:ss, hh:mm:ss past an hour, "2d 03:04:05" past a day. pay.js formats the live
 * countdown the same way (the only view logic it repeats: it has to tick between polls).
 */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (days > 0) return `${days}d ${two(h)}:${two(m)}:${two(s)}`;
  if (h > 0) return `${two(h)}:${two(m)}:${two(s)}`;
  return `${two(m)}:${two(s)}`;
}
