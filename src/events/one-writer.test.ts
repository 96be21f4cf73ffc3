import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

// Contract §22: the events table (the webhook outbox) has one writer, and each event type and the
// event body have one definition, all in src/events. Read from the source, so a second writer fails
// here before any database test runs. Tests are left out: they may write rows a case needs.
const SRC = fileURLToPath(new URL('..', import.meta.url));
const EVENTS = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [file] : [];
  });
}

/** Lines of src outside src/events that match `pattern`, as `file:line`. */
function outsideEvents(pattern: RegExp): string[] {
  return sources(SRC)
    .filter((f) => !f.startsWith(EVENTS))
    .flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${path.relative(SRC, f)}:${i + 1}`] : [])),
    );
}

// Any statement that writes the table: Kysely's builders and raw SQL alike, any spacing or case.
const WRITES =
  /(insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"`]events['"`]|(insert\s+into|update|delete\s+from|merge\s+into)\s+events\b/i;
const DEFINES_BODY = /(function|const)\s+(eventBody|newEvent)\b|created_at:\s*\S+,\s*livemode/;
const DEFINES_TYPES = /['"]refund\.ready['"],\s*$|EVENT_TYPES\s*=/;

describe('the events table has one writer, src/events', () => {
  test('no module outside src/events inserts, updates or deletes events', () => {
    expect(outsideEvents(WRITES)).toEqual([]);
  });

  test('no module outside src/events defines an event body or the list of event types', () => {
    expect(outsideEvents(DEFINES_BODY)).toEqual([]);
    expect(outsideEvents(DEFINES_TYPES)).toEqual([]);
  });

  test('the patterns catch the writers this replaced (the check is not vacuous)', () => {
    for (const line of [
      "    .insertInto('events')",
      '    insert into events (id, project_id, invoice_id, type, body, created_at)',
      '  update events set body = $1',
      "  await db.deleteFrom('events').where('id', '=', id)",
    ]) {
      expect(WRITES.test(line), line).toBe(true);
    }
    expect(WRITES.test("    .insertInto('events_archive')")).toBe(false);
    expect(WRITES.test("  .selectFrom('events')")).toBe(false);
    expect(DEFINES_BODY.test('export function eventBody(e: {')).toBe(true);
    expect(outsideEvents(/insertEvents\(/).length).toBeGreaterThanOrEqual(4);
  });
});
