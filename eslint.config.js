import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
    files: ['src/{commands,grid,api,state,i18n,ui,shared,map}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(views|app)(/|$)',
              message: 'commands, grid, map, api, state, i18n, ui and shared never import a view or the app: move the shared piece down instead.',
            },
          ],
        },
      ],
    },
  },
  // A screen reaches the app only through the spine (the router, the glob of commands), and no
  // other screen: what two screens share moves to src/ui, src/shared, src/grid or src/api.
  viewZone('src/views/*/*.{ts,tsx}', '^\\.\\./(?!\\.\\./)'),
  viewZone('src/views/*/*/**/*.{ts,tsx}', '^\\.\\./\\.\\./(?!\\.\\./)'),
  {
    // The server shares with the browser only the API contracts and src/shared.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)src/(?!(api|shared)/)', message: 'the server imports only the contracts of src/api/* and src/shared from src/.' }] },
      ],
    },
  },
  // Layout is Prettier's (`prettier --check` in npm run lint): no ESLint rule argues with it.
  prettier,
);

/** The rule of a view's files at one depth: `sibling` is the relative path that leaves its screen's folder. */
function viewZone(files, sibling) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)app(/|$)', message: 'views never import the app (src/app wires them together).' },
            {
              regex: `${sibling}|(^|(?<!api)/)views/`,
              message: 'a view never imports another view: move what they share to src/ui, src/shared, src/grid or src/api.',
            },
          ],
        },
      ],
    },
  };
}
