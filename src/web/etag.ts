/** RFC 9110 §13.1.2: If-None-Match matches on `*` or any listed tag, compared weakly. */
export function matchesIfNoneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}
