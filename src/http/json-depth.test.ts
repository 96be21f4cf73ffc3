import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/** The reference: the nesting depth of a parsed value, by the obvious recursion. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const deepValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 0 }),
    // Strings full of brackets and escapes, which must not count.
    fc.constantFrom('[[[', '}}', '\\"[{', '\\', '"'),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', '[', '{"', '\\'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

describe('nestsDeeperThan', () => {
  test('agrees with the depth of the parsed value, whatever the strings hold', () => {
    fc.assert(
      fc.property(deepValue, fc.integer({ min: 0, max: 12 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(nestsDeeperThan(text, limit)).toBe(depthOf(value) > limit);
      }),
      { numRuns: 2000 },
    );
  });

  test('decides a body nested 100,000 levels without recursing', () => {
    const text = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(nestsDeeperThan(text, MAX_JSON_DEPTH)).toBe(true);
    const ok = `${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}`;
    expect(nestsDeeperThan(ok, MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(`[${ok}]`, MAX_JSON_DEPTH)).toBe(true);
  });
});
