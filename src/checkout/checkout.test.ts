import { describe, expect, test } from 'vitest';
import { formatDateTime, formatRemaining } from './format.js';
import { payRoot } from './layout.js';

describe('formatRemaining', () => {
  test.each([
    [0, '00:00'],
    [-5000, '00:00'],
    [999, '00:01'],
    [59_000, '00:59'],
    [3_599_000, '59:59'],
    [3_600_000, '01:00:00'],
    [86_399_000, '23:59:59'],
    [7 * 86_400_000, '7d 00:00:00'],
  ])('%i ms → %s', (ms, text) => {
    expect(formatRemaining(ms)).toBe(text);
  });
});

test('formatDateTime is UTC, day month year, 24 h', () => {
  expect(formatDateTime('en-GB', new Date('2026-11-21T09:04:05.123Z'))).toBe('21 Nov 2026, 09:04 UTC');
});

describe('payRoot: links relative to /pay/, so the page also works under a proxy sub-path', () => {
  test.each([
    ['/pay/inv_x', ''],
    ['/pay/inv_x?a=/b', ''],
    ['/pay/inv_x/simulate', '../'],
    ['/pay/a/b/c', '../../'],
    ['/pay/', ''],
    ['/pay', 'pay/'],
  ])('%s → "%s"', (url, root) => {
    expect(payRoot(url)).toBe(root);
  });
});
