import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build -w @paydesk/node`: dist/esm (import) and dist/cjs (require), each with its type
 * declarations, from two tsc runs. dist/cjs/package.json says `commonjs`, so Node and TypeScript read
 * that folder's .js and .d.ts as CommonJS though the package is an ES module package.
 */
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const TSC = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin/tsc',
);

export function build(): void {
  rmSync(path.join(PACKAGE, 'dist'), { recursive: true, force: true });
  for (const config of ['tsconfig.esm.json', 'tsconfig.cjs.json']) {
    execFileSync(process.execPath, [TSC, '-p', config], { cwd: PACKAGE, stdio: 'inherit' });
  }
  writeFileSync(path.join(PACKAGE, 'dist/cjs/package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) build();
