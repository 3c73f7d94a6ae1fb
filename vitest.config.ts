import { defineConfig } from 'vitest/config';

const unitExclude = ['**/node_modules/**', '**/*.int.test.ts', '**/*.e2e.test.ts', '**/dist/**'];

export default defineConfig({
  test: {
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
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
