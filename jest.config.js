/**
 * Jest: unit specs beside the code; medium, integration and e2e specs under test/ against real services.
 * Projects: unit (*.spec.ts), medium (*.medium-spec.ts), integration (*.int-spec.ts, *.e2e-spec.ts),
 * contract (test/contract/*.contract-spec.ts: the built processes over raw HTTP, written from the public contract).
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
  },
];
/** jose 6 is ESM only (Node loads it with require(esm); jest's module system cannot): jest compiles it to CommonJS. */
const esmToCjs = ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }];
const moduleNameMapper = { '^@app/([a-z0-9-]+)$': '<rootDir>/libs/$1/src', '^@agora/sdk$': '<rootDir>/libs/sdk/src' };
const common = {
  transform: { '^.+\\.ts$': swc, '/node_modules/jose/.+\\.js$': esmToCjs },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
};
// One migrated template database for every project that uses it (jest runs a shared globalSetup once).
const integrationCommon = {
  ...common,
  roots: ['<rootDir>/test'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
};

module.exports = {
  // Integration and e2e tests start processes and chains; the limit is per test.
  testTimeout: 60000,
  // In one process the suites' leftovers grow the heap to V8's limit (4.3 GB here) two thirds of the way
  // through, and the rest of the run slows down in garbage collection until hooks time out. A worker
  // process is replaced once it holds more than this after a test file (and jest then uses a worker even
  // with one core to spare).
  workerIdleMemoryLimit: '1GB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: ['<rootDir>/apps', '<rootDir>/libs'],
      testRegex: '.*\\.spec\\.ts$',
      // propertyParams(): fast-check run counts and seeds (test/support/property-runs.ts).
      setupFiles: ['<rootDir>/test/setup/property-globals.ts'],
    },
    {
      // Domain use cases against real Postgres and Redis, no HTTP and no processes.
      ...integrationCommon,
      displayName: 'medium',
      testRegex: '.*\\.medium-spec\\.ts$',
    },
    {
      // Integration and e2e: real services, the apps on loopback ports, spawned processes.
      ...integrationCommon,
      displayName: 'integration',
      testRegex: '.*\\.(int|e2e)-spec\\.ts$',
    },
    {
      // Contract tests (CONTRIBUTING.md): raw HTTP against the built api and worker, importing nothing from
      // apps/, libs/ or the other test support (lint enforces it), so they cannot drift with the code.
      ...common,
      displayName: 'contract',
      roots: ['<rootDir>/test/contract'],
      testRegex: '\\.contract-spec\\.ts$',
    },
  ],
};
