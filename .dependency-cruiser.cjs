/**
 * dependency-cruiser: the shape of the monorepo, checked in CI (`npm run lint:deps`).
 *
 * The layer order is the one in docs/architecture.md ("Layers"): a lib may import only libs of a
 * lower tier (same-tier imports are refused unless listed in SAME_TIER below), libs never import
 * apps, apps never import each other, a lib is imported from outside only through its barrel
 * (`@app/<lib>` = libs/<lib>/src/index.ts), and there are no cycles. `@app/*` aliases resolve
 * through tsconfig.json, and an import that does not resolve is an error, so a missing alias
 * cannot hide an edge from the rules. Type-only imports count: a type is a dependency too.
 */

/** Lowest first. Apps sit above the last tier and may import any lib (through its barrel). */
const TIERS = [
  ['common', 'metrics', 'tracing'],
  ['config'],
  ['database'],
  ['ledger', 'outbox', 'queues', 'outbound', 'auth', 'json-schema', 'reputation'],
  ['agents', 'x402'],
  ['onchain'],
  ['payments', 'webhooks'],
  ['catalog'],
  ['execution', 'analytics'],
  ['chains', 'disputes'],
];

/**
 * Same-tier edges that are intended (none today: database, built from AppConfig, has its own tier
 * above config).
 */
const SAME_TIER = {};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const libsPattern = (libs) => `^libs/(${libs.map(escape).join('|')})/`;

const layerRules = TIERS.flatMap((tier, i) =>
  tier.map((lib) => {
    const allowed = [...TIERS.slice(0, i).flat(), ...(SAME_TIER[lib] ?? [])];
    const forbidden = TIERS.slice(i)
      .flat()
      .filter((other) => other !== lib && !allowed.includes(other));
    return {
      name: `layer-${lib}`,
      severity: 'error',
      comment: `libs/${lib} (tier ${i}) may import only: ${allowed.join(', ') || 'no other lib'}. See docs/architecture.md "Layers".`,
      from: { path: `^libs/${escape(lib)}/` },
      to: { path: forbidden.length ? libsPattern(forbidden) : '(?!)' },
    };
  }),
).filter((rule) => rule.to.path !== '(?!)');

// The SDK (libs/sdk) is a publishable package outside the tiers: it imports no other lib, and the
// developer surfaces built on it (apps/agora, apps/mcp) import nothing else.
const knownLibs = [...TIERS.flat(), 'sdk'];
const ENTITY_FILE = '^libs/[^/]+/src/entities/[^/]+\\.entity\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'lib-not-in-layers',
      severity: 'error',
      comment: 'Every lib has a place in TIERS (and an @app/<lib> alias in tsconfig.json). Add a new lib to TIERS.',
      from: { path: `^libs/(?!(${knownLibs.map(escape).join('|')})/)` },
      to: {},
    },
    {
      name: 'sdk-stands-alone',
      severity: 'error',
      comment: 'libs/sdk is published on its own: it talks to agora over HTTP and imports no other lib.',
      from: { path: '^libs/sdk/' },
      to: { path: '^libs/(?!sdk/)' },
    },
    {
      name: 'developer-surfaces-use-only-the-sdk',
      severity: 'error',
      comment: 'The agora CLI and the MCP server reach agora only through the SDK (@agora/sdk).',
      from: { path: '^apps/(agora|mcp)/' },
      to: { path: '^libs/(?!sdk/)' },
    },
    {
      name: 'libs-never-import-apps',
      severity: 'error',
      comment: 'Libs hold the domain; apps are the entry points on top of them.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-never-import-each-other',
      severity: 'error',
      comment: 'api, worker and ops share code only through libs.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'lib-through-barrel-from-lib',
      severity: 'error',
      comment: 'Another lib is imported only through its barrel: @app/<lib>, never a file under libs/<lib>/src.',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'lib-through-barrel-from-app',
      severity: 'error',
      comment:
        'Apps import a lib only through its barrel: @app/<lib>, never a file under libs/<lib>/src ' +
        '(or a published entry of the SDK: @agora/sdk/money, its USDC helpers alone, for the web console).',
      from: { path: '^apps/' },
      to: { path: '^libs/', pathNot: ['^libs/[^/]+/src/index\\.ts$', '^libs/sdk/src/money\\.ts$'] },
    },
    {
      name: 'lib-through-barrel-from-test',
      severity: 'warn',
      comment: 'Tests should import a lib through its barrel too (a warning: a few test helpers reach inside today).',
      from: { path: '^test/' },
      to: { path: '^libs/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'no-test-code-in-apps-or-libs',
      severity: 'error',
      comment: 'Production code never imports the test tree.',
      from: { path: '^(apps|libs)/' },
      to: { path: '^test/' },
    },
    {
      name: 'contract-tests-stand-alone',
      severity: 'error',
      comment:
        'Contract tests (test/contract, CONTRIBUTING.md) are written from the public contract only: they import ' +
        'node built-ins, ethers, pg and files inside test/contract, never the code they test or its test support.',
      from: { path: '^test/contract/' },
      to: { path: '^(apps|libs)/|^test/(?!contract/)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No cycles (forwardRef is a design bug: move the shared piece down a layer or publish an event). ' +
        'The one exception: a cycle made only of entity files, which is how TypeORM declares the two sides of a relation ' +
        '(lazy `() => Entity` targets and `Relation<>` types, so nothing is read before both classes exist).',
      from: {},
      to: { circular: true, via: { pathNot: ENTITY_FILE } },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every import resolves (an @app alias missing from tsconfig.json would otherwise escape the rules).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|coverage|\\.tmp)/|^(apps|libs)/[^/]+/dist/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
