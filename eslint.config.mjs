import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: ['**/dist/**', 'node_modules/**', 'coverage/**', '.tmp/**', 'jest.config.js', 'libs/sdk/src/generated/**'],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@app/*/src', '@app/*/src/*'], message: 'Import a lib through its barrel (@app/<lib>).' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['libs/config/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through AppConfig (libs/config).' },
      ],
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'No floats near money: use Usdc / bigint.' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='toFixed']",
          message: 'No floats near money: use Usdc.format().',
        },
        {
          selector: "CallExpression[callee.name='forwardRef']",
          message: 'forwardRef means a dependency cycle: move the shared piece down a layer.',
        },
      ],
    },
  },
  ...['libs', 'apps/api', 'apps/worker', 'apps/ops'].map((dir) => ({
    files: [`${dir}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@app/*/src', '@app/*/src/*'], message: 'Import a lib through its barrel (@app/<lib>).' },
            {
              group: ['**/apps/*', '../../apps/**', '../../../apps/**'],
              message: 'Libs never import apps; apps never import each other.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Plain CommonJS tooling scripts (run with node, no build step).
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
