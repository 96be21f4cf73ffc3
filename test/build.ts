import { readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Compiles src once per run for the tests that start Paydesk as a process: tsx would compile it
 * again at every start, which costs each start about a second. The transform is tsx's own (esbuild,
 * file by file, the tsconfig, the running Node as target), so the children run the same code as
 * `npm start`; the quick start's test still runs `npm start`'s exact command.
 *
 * The files land in `<dir>/dist/`, laid out as `npm run build`'s dist/: code that finds its files
 * relative to itself (`../../src/web/assets/`, `../../migrations/`, `../../contracts/`, `../package.json`) finds them
 * through links to the checkout's, and so do its imports of node_modules. Returns the entry point.
 */
export async function buildPaydesk(dir: string): Promise<string> {
  const sources = (await readdir(path.join(ROOT, 'src'), { recursive: true }))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(ROOT, 'src', f));
  await build({
    entryPoints: sources,
    outdir: path.join(dir, 'dist'),
    outbase: path.join(ROOT, 'src'),
    format: 'esm',
    platform: 'node',
    // tsx's options (its esm loader's transform).
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcesContent: false,
    minifyWhitespace: true,
    keepNames: true,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  });
  for (const name of ['src', 'migrations', 'contracts', 'package.json', 'node_modules']) {
    await symlink(path.join(ROOT, name), path.join(dir, name));
  }
  return path.join(dir, 'dist', 'main.js');
}
