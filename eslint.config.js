import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      // Type-aware rules: each file is linted with the types tsconfig.json gives it.
      parserOptions: {
        projectService: { allowDefaultProject: ['eslint.config.js', 'scripts/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-deprecated': 'error',
    },
  },
  {
    // The renderer knows only scenes (render/scene.ts): games become scenes on the game side, so
    // a render thread loads no game, protocol or Discord code.
    files: ['render/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/src/**', '../src', '../../src'],
              message: 'render/ draws scenes only: turn games into scenes in src/ (src/game/scenes.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The live page's script runs in the browser as plain JavaScript (no types, no bundler).
    files: ['src/web/client/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        document: 'readonly',
        EventSource: 'readonly',
        performance: 'readonly',
        setInterval: 'readonly',
      },
    },
  },
);
