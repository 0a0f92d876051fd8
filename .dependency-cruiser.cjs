// Import boundaries of docs/architecture.md, checked by `make lint` (and so by `make test`).
// A violation prints the rule's name and comment; the rule names are what a reader searches for here.
const TESTS = '(\\.spec\\.tsx?$|\\.test\\.tsx?$|\\.int-spec\\.ts$|/test/|^e2e/|^bench/)';

module.exports = {
  forbidden: [
    {
      name: 'proto-imports-nothing-internal',
      comment:
        'proto/ is the protocol: it may import only npm packages, never a service, the platform, the gateway or the web app.',
      severity: 'error',
      from: { path: '^proto/' },
      to: { path: '^(services|gateway|web|scripts|deploy|e2e|bench)/' },
    },
    {
      name: 'platform-imports-only-proto',
      comment:
        'services/platform is the kit under every service: it may import proto and npm packages, never a service or the gateway.',
      severity: 'error',
      from: { path: '^services/platform/' },
      to: { path: '^(services/(?!platform/)|gateway/|web/)' },
    },
    {
      name: 'service-imports-only-proto-and-platform',
      comment:
        'A service may import proto, the platform and its own folder; it talks to other services over Kafka only.',
      severity: 'error',
      from: { path: '^services/([^/]+)/', pathNot: '^services/platform/' },
      to: { path: '^(services/|gateway/|web/)', pathNot: ['^services/$1/', '^services/platform/'] },
    },
    {
      name: 'gateway-imports-only-proto-and-platform',
      comment:
        "The gateway (its tests included) may import proto and the platform, never a service's source or dist/: it reaches services over Kafka, and its tests start them as processes.",
      severity: 'error',
      from: { path: '^gateway/' },
      to: { path: '^(services/(?!platform/)|web/)' },
    },
    {
      name: 'no-standin-in-production-src',
      comment:
        "Vendor stand-ins live in standins/ (services/manifest.json's standIns): a service's production sources never import one; its tests may.",
      severity: 'error',
      from: { path: '^(services|gateway)/', pathNot: TESTS },
      to: { path: '^standins/' },
    },
    {
      name: 'standins-import-no-gateway-or-web',
      comment:
        "A stand-in may use proto, the platform, the kit and the announcements mock source's history (the ASX stand-in seeds the same), never the gateway or the web app.",
      severity: 'error',
      from: { path: '^standins/' },
      to: { path: '^(gateway|web)/' },
    },
    {
      name: 'testing-harness-only-in-tests',
      comment: 'The test harness (@irp/platform/testing) is for tests; production code may not import it.',
      severity: 'error',
      from: { path: '^(services|gateway)/', pathNot: [TESTS, '^services/platform/src/testing'] },
      to: { path: '^services/platform/(src|dist)/testing' },
    },
    {
      name: 'proto-testing-only-in-tests',
      comment:
        'The shared test fixtures (@irp/proto/testing) are for tests; production code may not import them.',
      severity: 'error',
      // The platform's test harness (`@irp/platform/testing`, itself for tests only) signs fixture actors.
      from: { pathNot: [TESTS, '^proto/src/testing/', '^services/platform/src/testing/'] },
      to: { path: '^proto/(src|dist)/testing/' },
    },
    {
      name: 'web-features-never-import-each-other',
      comment:
        'A web feature may import lib/, components/, api/ and app/ hooks, never another feature; shared pieces move to lib/ or components/, tabs come through the tab registry.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'service-features-never-import-each-other-both-ways',
      comment:
        "Inside a service, a feature folder (services/<s>/src/<feature>/) may import another, never back, not even round a longer loop: what two features share moves to a folder beneath both (announcements' ingestion/ under polling/, initial-poll/, reconcile/ and scheduling/). Counted per folder, over every file in it, so a loop between two features is an error even when no one file imports itself back.",
      severity: 'error',
      scope: 'folder',
      from: { path: '^services/([^/]+)/src/([^/]+)$' },
      to: { path: '^services/$1/src/[^/]+', pathNot: '^services/$1/src/$2(/|$)', circular: true },
    },
    {
      name: 'web-imports-no-server-code',
      comment:
        'The web app may import proto (the contract) and npm packages, never server code; its tests may import the declared skip conditions (scripts/testing/skip-conditions.js).',
      severity: 'error',
      from: { path: '^web/' },
      to: {
        path: '^(services|gateway|scripts|deploy)/',
        pathNot: '^scripts/testing/skip-conditions\\.(js|d\\.ts)$',
      },
    },
    {
      name: 'rules-files-are-pure',
      comment:
        "A *-rules.ts file holds decisions that need no I/O (docs/architecture.md, \"One way to the database\"): at run time it may import proto, luxon/zod-like libraries, other pure modules and the platform's plain error type (@irp/platform/errors), never TypeORM, Nest, pg, Kafka, a mailer, HTTP or the platform's runtime. Type-only imports (an entity's shape) are fine: they vanish when compiled.",
      severity: 'error',
      from: { path: '-rules\\.ts$' },
      to: {
        dependencyTypesNot: ['type-only'],
        path: [
          '(^|/)node_modules/(typeorm|@nestjs/[^/]+|pg|pg-[^/]+|kafkajs|nodemailer|undici|playwright[^/]*)/',
          '^services/platform/(src|dist)/(?!errors\\.(ts|js|d\\.ts)$)',
          '^node:(fs|net|http|https|child_process|dns)',
          '^(fs|net|http|https|child_process|dns)$',
        ],
      },
    },
    {
      name: 'no-unresolvable-imports',
      comment: 'Every relative or workspace import must resolve to a file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Cruised from the source folders (scripts/lint.mjs names them); anything in node_modules or a dist/ is
    // shown as a dependency (so the rules see it) but not followed.
    doNotFollow: { path: '(^|/)(node_modules|dist)/' },
    exclude: { path: '(^|/)(\\.local|test-results|playwright-report)/' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    preserveSymlinks: false,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['types', 'main'],
    },
  },
};
