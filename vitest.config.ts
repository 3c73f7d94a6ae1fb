import { defineConfig } from 'vitest/config';

const unitExclude = ['**/node_modules/**', '**/*.int.test.ts', '**/*.e2e.test.ts', '**/dist/**'];

// Every file of every project shares one pool. On a 2-core machine vitest's default (cores − 1)
// would run the whole suite one file at a time; most files wait on PostgreSQL, a Sprout process
// or Chromium rather than on their own CPU, so a few at once finish the suite far sooner.
const WORKERS = Number(process.env.SPROUT_TEST_WORKERS ?? 3);
// `expect.poll` gives up after one second by default: on a loaded machine a screen can take
// longer than that to answer a click. Journeys poll for what a user would wait for.
const poll = { timeout: 15_000, interval: 50 };

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'services/*/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/architecture/**/*.test.ts',
            'tests/infra/**/*.test.ts',
          ],
          exclude: unitExclude,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'int',
          include: ['services/*/src/**/*.int.test.ts', 'tests/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/setup/int-global.ts'],
          expect: { poll },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/setup/e2e-global.ts'],
          expect: { poll },
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
