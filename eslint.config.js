// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules. Formatting is Prettier's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What a module may not import (docs/development.md, "Layers"): anything above it, a workflow, another module's service. */
const MODULE_LEAF_PATTERNS = [
  {
    group: ['**/http/**', '**/jobs/**', '**/webhooks/**', '**/cli/**', '**/services.js', '**/app.js', '**/server.js'],
    message: 'The domain imports nothing above it: transport, jobs and the composition root call it.',
  },
  {
    group: ['**/workflows/**'],
    message: 'Modules are leaves: workflows (src/workflows/) call modules, never the other way.',
  },
  {
    group: ['../*/**/*.service.js'],
    message: "A module imports no other module's service: a use case that needs two modules is a workflow.",
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', '.bench/', '.scratch/', 'data/', 'console/src/api/openapi.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Migrations take Kysely<any> by design (they are frozen in time, typed by no app code).
    files: ['src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // Layers (docs/development.md, "Layers"; test/architecture/import-graph.test.ts checks the
  // whole graph, these say it where the import is written).
  {
    files: ['src/modules/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: MODULE_LEAF_PATTERNS }] },
  },
  {
    files: ['src/modules/**/*.ts'],
    ignores: ['src/modules/privacy-requests/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...MODULE_LEAF_PATTERNS,
            {
              group: ['**/privacy-requests/**'],
              message:
                'Modules below the request lifecycle do not import it; name a request through modules/request-model (a shared leaf).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/**', '**/jobs/**', '**/webhooks/**', '**/cli/**', '**/services.js', '**/app.js', '**/server.js'],
              message: 'Workflows import nothing above them: transport, jobs and the composition root call them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/db/**/*.ts', 'src/lib/**/*.ts', 'src/config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**', '**/workflows/**', '**/http/**', '**/jobs/**'],
              message: 'db, lib and config are below every module.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
  },
);
