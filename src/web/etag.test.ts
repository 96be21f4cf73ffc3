import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { matchesIfNoneMatch } from './etag.js';

describe('matchesIfNoneMatch', () => {
  const tag = '"q1Yc9rT0bWm4LxE2pKd7sA"';
  test.each([
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    ['*', true],
    ['"other"', false],
    ['', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => {
    expect(matchesIfNoneMatch(header, tag)).toBe(expected);
  });

  test('never throws, and never matches a header that does not contain the tag', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        const matched = matchesIfNoneMatch(header, tag);
        if (!header.includes(tag) && header.trim() !== '*') expect(matched).toBe(false);
      }),
    );
  });
});
