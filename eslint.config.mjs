import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';

/** HTTP vocabulary: src/http maps domain errors to it; src/db and src/domain never speak it (docs/service-guide.md). */
const HTTP_ERRORS = {
  name: '@tyres/service-kit',
  importNames: [
    'HttpError',
    'badRequest',
    'unauthorized',
    'forbidden',
    'notFound',
    'conflict',
    'tooManyRequests',
    'serviceUnavailable',
    'fromZodError',
    'toHttpError',
  ],
  message:
    'src/db and src/domain throw domain errors; src/http turns them into HTTP answers (docs/service-guide.md).',
};
const HTTP_LAYER = {
  group: ['**/http/**', 'express'],
  message: 'src/db and src/domain do not depend on the HTTP layer (docs/service-guide.md).',
};
/** I/O a domain rule must not do: it takes data and returns decisions (docs/service-guide.md). */
const IO_MODULES = [
  'pg',
  '@prisma/client',
  'amqplib',
  'ioredis',
  'bullmq',
  'undici',
  'nodemailer',
  'stripe',
  'twilio',
]
  .concat(['fs', 'http', 'https', 'net', 'child_process'].flatMap((m) => [m, `node:${m}`]))
  .map((name) => ({
    name,
    message: 'src/domain holds rules without I/O; put the call in src/app or src/db.',
  }));

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/src/db/generated/**', '**/@mf-types/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['frontends/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['services/*/src/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [HTTP_ERRORS], patterns: [HTTP_LAYER] }],
    },
  },
  {
    files: ['services/*/src/domain/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [HTTP_ERRORS, ...IO_MODULES],
          patterns: [
            HTTP_LAYER,
            // Types of stored records are shared vocabulary; calling the db layer is not.
            {
              group: ['**/db/**', '**/app/**'],
              allowTypeImports: true,
              message: 'src/domain is the innermost layer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['frontends/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y-x': jsxA11y },
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
