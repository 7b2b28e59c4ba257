import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    reporters: ['default', ['json', { outputFile: '.vitest/results.json' }]],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
