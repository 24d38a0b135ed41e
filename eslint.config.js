import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', '.test-build-*/', 'node_modules/', 'data/', 'coverage/'] },
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
  // Layers import downwards only: protocol, then games and the feeds, then storage and the relay,
  // then clubs, then Discord and the web page, then app.ts (docs/architecture.md). Each entry: the
  // folder, what it may not import, and why.
  ...[
    [
      'src/protocol/**',
      ['fics', 'game', 'chesslive', 'engine', 'fleet', 'relay', 'storage', 'club', 'discord', 'web'],
      'decoders know nothing of sockets, games or Discord',
    ],
    [
      'src/game/**',
      ['fics', 'chesslive', 'engine', 'fleet', 'relay', 'storage', 'club', 'discord', 'web'],
      'game state knows nothing of the wire, the relay, storage or Discord',
    ],
    [
      'src/{fics,engine,chesslive}/**',
      ['relay', 'discord', 'web', 'club', 'fleet', 'storage'],
      'feeds and the engine serve the relay and know nothing of what uses them',
    ],
    [
      'src/relay/**',
      ['discord', 'web', 'club', 'fleet'],
      'the relay reaches Discord through its ports (src/relay/ports.ts)',
    ],
    [
      'src/storage/**',
      ['relay', 'discord', 'web', 'club', 'fleet', 'chesslive', 'engine'],
      'storage keeps what the layers above it need, in their lower types (src/game/)',
    ],
    [
      'src/fleet/**',
      ['relay', 'discord', 'web', 'club', 'storage'],
      'the fleet shares the FICS feed between machines and knows nothing of what uses it',
    ],
    ['src/club/**', ['discord', 'web', 'fleet'], 'clubs post through the relay and know nothing of Discord'],
    [
      'src/web/**',
      ['discord', 'club', 'fleet'],
      'the live page reads games, the relay and storage; Discord and the web page know nothing of each other',
    ],
  ].map(([files, below, why]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...below.map((folder) => ({ group: [`**/${folder}/**`], message: `${files}: ${why}.` })),
            {
              group: ['**/app.js', '**/main.js'],
              message: 'Only the composition root (src/app.ts) joins the layers.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Actions are the commands as use cases, over plain inputs and results: commands/ adapts them
    // to Discord, and a second chat platform would adapt the same actions.
    files: ['src/actions/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['discord.js', '@discordjs/*', '**/discord/**', '**/web/**', '**/commands/**'],
              message: 'src/actions: no chat platform here; commands/ turns results into replies.',
            },
          ],
        },
      ],
    },
  },
  // Discord code knows nothing of the wire format: from below the games it takes only the brands'
  // types (a Handle, a GameNumber: no code comes with them) and, in src/discord/, the edge's
  // parsers and the FICS errors its replies word (src/fics/validate.ts, errors.ts). commands/ goes
  // through src/actions/ and src/discord/ for the rest.
  ...[
    ['src/discord/**', ['!**/fics/validate.js', '!**/fics/errors.js']],
    ['commands/**', []],
  ].map(([files, allowed]) => ({
    files: [files],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/protocol/**'],
              allowTypeImports: true,
              message: `${files}: no wire format here; the brands' types only (import type).`,
            },
            {
              group: ['**/fics/**', ...allowed],
              message: `${files}: FICS is reached through src/actions/ and the relay, not directly.`,
            },
            {
              group: ['**/web/**', '**/fleet/**'],
              message: `${files}: Discord and the web page (and the fleet) know nothing of each other.`,
            },
            {
              group: ['**/app.js', '**/main.js'],
              message: 'Only the composition root (src/app.ts) joins the layers.',
            },
          ],
        },
      ],
    },
  })),
  {
    // The live page's script runs in the browser as plain JavaScript (no types, no bundler).
    files: ['src/web/client/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        AudioContext: 'readonly',
        document: 'readonly',
        EventSource: 'readonly',
        GainNode: 'readonly',
        localStorage: 'readonly',
        OscillatorNode: 'readonly',
        performance: 'readonly',
        setInterval: 'readonly',
      },
    },
  },
);
