import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'dist-server', 'data', 'node_modules', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Imports go one way: views (and app) may use the spine; the spine never reaches back into a
    // screen, so a screen can be added or removed without touching it.
    files: ['src/{commands,grid,api,state,i18n,ui,shared}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)(views|app)(/|$)', message: 'commands, grid, api, state, i18n, ui and shared never import a view or the app: move the shared piece down instead.' }] },
      ],
    },
  },
  {
    // A screen reaches the app only through the spine (the router, the glob of commands).
    files: ['src/views/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)app(/|$)', message: 'views never import the app (src/app wires them together).' }] }],
    },
  },
);
