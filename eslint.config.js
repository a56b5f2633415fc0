// @ts-check
import tseslint from 'typescript-eslint';

/**
 * Type-aware rules only where they catch what the compiler does not: a promise nobody awaits can
 * lose a write or crash the process with an unhandled rejection, and a missed case of a union
 * is a silent fall-through. Formatting is Prettier's, never the linter's.
 */
export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'test-output/', '.tools/', '.scratch/', 'bin/'] },
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      // The benches load the built service lazily and type it from the source with `typeof import()`.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
