// The journeys of the production-parity run (scripts/parity.mjs starts the stack as docker-compose.yml describes it,
// then runs these against its gateway): `npm run test:parity`, never on their own.
const path = require('node:path');

module.exports = {
  rootDir: path.resolve(__dirname, '..', '..'),
  displayName: 'parity',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/parity/**/*.parity.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@tyres/(events|service-kit|prisma-tools|testkit|reference-data|kernel)$':
      '<rootDir>/packages/$1/src/index.ts',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
  testTimeout: 120000,
};
