// Lint: typescript-eslint's recommended type-aware rules plus the layer rules of DESIGN.md.
// Dependencies point inward: core imports nothing of ours and no node:* module.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (files, groups, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }] },
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'src/protocol/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['scripts/**/*.mjs'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', fetch: 'readonly' } } },
  layer(['src/core/**'], ['node:*', '**/engine/**', '**/api/**', '**/protocol/**', '**/sim/**', '**/backtest/**', '**/cli*'],
    'core/ is pure: no I/O, no threads, no wire formats, no outer layer'),
  layer(['src/protocol/**'], ['**/engine/**', '**/api/**', '**/sim/**', '**/backtest/**'],
    'protocol/ depends on core only'),
  layer(['src/engine/**'], ['**/api/**', '**/sim/**', '**/backtest/**', '**/gate/**'],
    'engine/ depends on core and protocol only'),
  layer(['src/gate/**'], ['node:*', '**/engine/**', '**/api/**', '**/sim/**', '**/backtest/**', '**/protocol/**'],
    'gate/ (the Gate protocol: parsing, shapes, labels) depends on core only'),
  layer(['src/api/**'], ['**/backtest/**'], 'api/ does not depend on backtest/'),
  {
    files: ['soak/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)test/(?!support/)',
      message: 'soak/ imports src, test/support and the benchmarks\' process helpers, never a test' }] }] },
  },
);
