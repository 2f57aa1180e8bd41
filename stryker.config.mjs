// Mutation testing of the money rules (issue 12): `npm run test:mutation`. Not part of `npm test` (it takes
// minutes); see the README's test section. Reports: reports/mutation/ (git-ignored).
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const jestConfig = require('./jest.config.js');

// The repo's own unit project, as a single-project config: Stryker's jest runner instruments one project, and
// the integration/web/e2e projects need infrastructure or a browser. rootDir comes from jest.config.js as read
// inside the sandbox, so the tests run against the mutated copy.
const { displayName: _name, ...unit } = jestConfig.projects.find((p) => p.displayName === 'unit');
// Each module is measured by the unit tests written beside it (its folder's), not by every test that happens to
// pass through it (http, events, other services): that says whether the money rules themselves are pinned down,
// and keeps the run to minutes. (Stryker's own `testFiles` option would do the same, but its runs of static
// mutants then execute no test at all.)
const testMatch = [
  '<rootDir>/packages/kernel/src/**/*.test.ts',
  '<rootDir>/services/booking/src/domain/**/*.test.ts',
  '<rootDir>/services/jobs/src/domain/**/*.test.ts',
  '<rootDir>/services/billing/src/domain/**/*.test.ts',
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    config: { ...unit, testMatch, projects: [], testTimeout: jestConfig.testTimeout },
    // Each mutant runs only the unit tests that import its file (and, with perTest, only those that reach it).
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  mutate: [
    'packages/kernel/src/money.ts',
    'services/booking/src/domain/pricing.ts',
    'services/jobs/src/domain/status.ts',
    'services/billing/src/domain/invoice-lines.ts',
    'services/billing/src/domain/money.ts',
  ],
  // The machine's cores are shared: at most two test runners.
  concurrency: 2,
  // The sandbox copy lives outside the checkout so lint, prettier and jest never pick it up mid-run.
  tempDirName: join(tmpdir(), 'stryker-tyres'),
  // Not needed by unit tests; keeps the sandbox copy small.
  ignorePatterns: ['frontends', '**/dist', 'docs', 'k8s', '.run', 'coverage', 'test/e2e'],
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: {
    allowColor: false,
    logTests: false,
    reportTests: false,
    reportScoreTable: true,
    reportMutants: true,
  },
  thresholds: { high: 90, low: 80, break: null },
  timeoutMS: 10000,
  cleanTempDir: 'always',
};
