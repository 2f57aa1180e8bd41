// One jest run, two projects: fast unit tests beside the code, integration suites against real infra.
const swc = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript', decorators: false }, target: 'es2022' },
    module: { type: 'commonjs' },
  },
];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@tyres/(events|service-kit|prisma-tools|testkit|reference-data|kernel|telemetry)$':
      '<rootDir>/packages/$1/src/index.ts',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};
const swcWeb = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];
module.exports = {
  // Global in jest 30 (per-project values are ignored): integration suites talk to real infrastructure.
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{packages,services}/*/src/**/*.test.ts', '<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      setupFiles: ['<rootDir>/test/support/contract-check.js'],
      testMatch: [
        '<rootDir>/{packages,services}/*/test/integration/**/*.int.test.ts',
        '<rootDir>/test/integration/**/*.int.test.ts',
      ],
    },
    {
      // Front-end component tests (React Testing Library in jsdom).
      displayName: 'web',
      testEnvironment: 'jsdom',
      transform: { '^.+\\.(ts|tsx)$': swcWeb },
      moduleNameMapper: {
        '^@tyres/platform$': '<rootDir>/frontends/platform/src/index.ts',
        '^@tyres/reference-data$': '<rootDir>/packages/reference-data/src/index.ts',
        '^@tyres/kernel$': '<rootDir>/packages/kernel/src/index.ts',
        '^@tyres/platform/(.*)$': '<rootDir>/frontends/platform/src/$1',
        '\\.(css|less|svg|png|jpe?g|webp)$': '<rootDir>/test/support/style-stub.js',
      },
      setupFilesAfterEnv: ['<rootDir>/test/support/web-setup.ts'],
      testMatch: ['<rootDir>/frontends/*/src/**/*.test.{ts,tsx}'],
    },
    {
      ...shared,
      // Stops and restarts the machine's RabbitMQ and Redis under a running gateway (issue 15); only through
      // scripts/fault.mjs, which starts the processes and restores both afterwards. Run in band.
      displayName: 'fault',
      testMatch: ['<rootDir>/test/fault/**/*.fault.test.ts'],
    },
    {
      ...shared,
      // Drives the running stack (E2E_BASE_URL) in headless Chromium; started by scripts/e2e.mjs.
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.test.ts'],
    },
  ],
};
