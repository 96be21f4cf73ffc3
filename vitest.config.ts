import { defineConfig } from 'vitest/config';

export default defineConfig({
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
    // Two files at a time even on two cores: many tests mostly wait (real processes, a real chain,
    // a browser, one real-time expiry), so the suite takes far less than its summed duration.
    maxWorkers: 2,
    isolate: false,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
