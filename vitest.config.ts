import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests that import the SDK by its package name get its source, as the workspace's TypeScript does
  // (the "@paydesk/source" condition); the packed build has its own test.
  resolve: {
    alias: { '@paydesk/node': fileURLToPath(new URL('packages/node/src/index.ts', import.meta.url)) },
  },
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'packages/*/{src,scripts,test}/**/*.test.ts',
      'examples/*/{src,test}/**/*.test.ts',
    ],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // PGlite is a 9 MB WebAssembly module: V8 compiles it fast (Liftoff), then recompiles its hot
    // functions with its optimising compiler in the background, which a test process, living seconds
    // to a couple of minutes, spends more CPU on than it wins back (about a tenth of the workers' CPU).
    execArgv: ['--liftoff-only'],
    // Two files at a time even on two cores: many tests mostly wait (real processes, a real chain,
    // a browser, one real-time expiry), so the suite takes far less than its summed duration.
    maxWorkers: 2,
    isolate: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
