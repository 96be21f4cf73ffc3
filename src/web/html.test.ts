import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapeHtml, html, raw } from './html.js';

const decodeEntities = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );

describe('escapeHtml', () => {
  test('leaves no character that could open a tag, an entity or leave a quoted attribute', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const escaped = escapeHtml(s);
        expect(escaped).not.toMatch(/[<>"']/);
        expect(escaped.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
        expect(decodeEntities(escaped)).toBe(s);
      }),
    );
  });
});

describe('html', () => {
  test('escapes interpolated text, keeps Html as it is, joins arrays and drops null, undefined and false', () => {
    const name = '<script>alert("x")</script>';
    const out = html`<p title="${name}">${name}${raw('<b>ok</b>')}${[html`<i>${'&'}</i>`, 'a<b']}${null}${undefined}${false}</p>`;
    expect(out.toString()).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<b>ok</b><i>&amp;</i>a&lt;b</p>',
    );
  });

  test('renders numbers and zero', () => {
    expect(html`${0}-${1.5}`.toString()).toBe('0-1.5');
  });
});
