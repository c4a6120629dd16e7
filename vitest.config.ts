import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Suites spend most of their time waiting on Postgres, MariaDB, Chromium and child servers:
    // three forks keep the CI machines' two cores busy (measured: 182 s with two, 161 s with three).
    maxWorkers: 3,
    // A fork keeps its module cache from one file to the next instead of importing the app again
    // for each (import time 103 s → 19 s over the run). Nothing a file sets survives it: every app
    // and container is built per suite with its own store and password hasher, and no suite mocks
    // a module (a test seam is a subclass, as in src/sources/mysql/no-result-set.int.test.ts).
    isolate: false,
  },
});
