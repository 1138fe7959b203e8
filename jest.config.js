/** Jest: unit specs beside the code; integration and e2e specs under test/ against real services. */
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
const moduleNameMapper = { '^@app/([a-z0-9-]+)$': '<rootDir>/libs/$1/src', '^@agora/sdk$': '<rootDir>/libs/sdk/src' };
const common = {
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  // Integration and e2e tests start processes and chains; the limit is per test.
  testTimeout: 60000,
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
      ...common,
      displayName: 'integration',
      roots: ['<rootDir>/test'],
      testRegex: '.*\\.(int|medium|e2e)-spec\\.ts$',
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
      globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
    },
  ],
};
