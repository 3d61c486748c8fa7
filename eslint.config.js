// ESLint (flat config): the recommended JavaScript and typescript-eslint rules, minus the
// noisy ones, plus the one rule that needs types (no-floating-promises). `npm run lint`
// runs it after the type checks and scripts/check-deps.mjs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'book/', 'test-artifacts/', 'runs/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        // Node and the page's browser globals the code uses; types are checked by tsc
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        globalThis: 'readonly',
        structuredClone: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-constant-condition': ['error', { checkLoops: false }],
      // flags the initial values of variables every path assigns again: noise in the search code
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'web/src/**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.test.json', './web/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // code that bench-serve runs inside the page (page.evaluate)
    files: ['scripts/bench-serve.mjs'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly', requestAnimationFrame: 'readonly', MutationObserver: 'readonly' } },
  },
);
