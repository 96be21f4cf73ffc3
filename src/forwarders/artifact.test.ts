import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import solcPackage from '../../node_modules/solc/package.json' with { type: 'json' };
import packageJson from '../../package.json' with { type: 'json' };
import { artifacts } from '../../scripts/contracts.js';

describe('the committed contract artifacts', () => {
  it('are byte for byte what their sources compile to with the pinned solc', async () => {
    for (const { path, text } of await artifacts()) {
      // `npm run contracts:compile` rewrites them; a difference means a source changed without it.
      expect(await readFile(path, 'utf8'), path.pathname).toBe(text);
    }
  });

  it('come from the solc version package.json pins exactly', () => {
    expect(packageJson.devDependencies.solc).toMatch(/^\d+\.\d+\.\d+$/);
    expect(solcPackage.version).toBe(packageJson.devDependencies.solc);
  });
});
