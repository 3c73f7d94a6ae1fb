import { defineConfig } from 'vitest/config';

// `npm run test:fleet`: the fleet on loopback (tests/fleet/), one file, apart from `npm test`
// because it starts a dozen processes of its own (docs/OPERATIONS.md "A fleet").
export default defineConfig({
  test: {
    name: 'fleet',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/fleet/**/*.fleet.test.ts'],
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 15_000, interval: 50 } },
  },
});
