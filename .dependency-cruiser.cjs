/** Architecture rules: the engine stays free of I/O, and no module graph cycles. */
module.exports = {
  forbidden: [
    {
      name: 'engine-no-io',
      comment: 'src/engine talks to storage only through its Directory port: no fs, network, HTTP, Kafka or S3 code.',
      severity: 'error',
      from: { path: '^src/engine' },
      to: {
        path: [
          '^(node:)?(fs|fs/promises|net|http|https|http2|dgram|dns|tls|child_process|cluster)$',
          '^src/(storage|ingest|api|cli|plants|ui|config)/',
          'node_modules/(fastify|undici|@aws-sdk|@smithy|@platformatic/kafka|@confluentinc|kafkajs|axios|node-fetch|got)/',
        ],
      },
    },
    {
      name: 'engine-no-io-builtins',
      severity: 'error',
      from: { path: '^src/engine' },
      to: { dependencyTypes: ['core'], path: '^(fs|fs/promises|net|http|https|http2|dgram|dns|tls|child_process|cluster)$' },
    },
    {
      name: 'ui-browser-only',
      comment: 'src/ui is the search page, bundled for the browser: it reaches the server over HTTP only, never through server modules or Node built-ins.',
      severity: 'error',
      from: { path: '^src/ui' },
      to: { pathNot: '^(src/ui/|node_modules/preact/)' },
    },
    {
      name: 'ui-not-imported',
      comment: 'The server serves the built page (dist/ui) as files; no server module imports the page\'s code.',
      severity: 'error',
      from: { path: '^src/(?!ui/)' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'no-circular',
      comment: 'Import cycles hide layering mistakes.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
