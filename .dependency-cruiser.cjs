/** Architecture rules: the engine stays free of I/O, folders form layers, and no module graph cycles. */

/**
 * The folders of src/, lowest layer first. A folder may import only folders before it, so no two
 * folders can import each other, directly or through a third: there are no folder-level cycles
 * (module-level cycles are `no-circular`'s). The plant store is a module the CLI mounts into the
 * API server, so it comes after api; the CLI wires everything and comes last. Inference sits below
 * config: the config file's schema includes the inference section's own schema (which imports only
 * zod, so loading a config never loads a model runtime). A new folder takes
 * its place here.
 */
const LAYERS = ['engine', 'storage', 'inference', 'config', 'ingest', 'ui', 'api', 'plants', 'cli'];

/** One rule per folder pair: the lower folder never imports the higher one. */
const layerRules = LAYERS.flatMap((lower, i) =>
  LAYERS.slice(i + 1).map((higher) => ({
    name: `layers-${lower}-not-${higher}`,
    comment: `src/${lower} is below src/${higher} (.dependency-cruiser.cjs LAYERS): importing it would make a folder cycle possible.`,
    severity: 'error',
    from: { path: `^src/${lower}/` },
    to: { path: `^src/${higher}/` },
  })),
);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'engine-no-io',
      comment: 'src/engine talks to storage only through its Directory port: no fs, network, HTTP, Kafka or S3 code. Except commit/thread-policy.ts, which runs chrt on its own thread (no storage).',
      severity: 'error',
      from: { path: '^src/engine', pathNot: '^src/engine/commit/thread-policy\\.ts$' },
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
      from: { path: '^src/engine', pathNot: '^src/engine/commit/thread-policy\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(fs|fs/promises|net|http|https|http2|dgram|dns|tls|child_process|cluster)$' },
    },
    {
      name: 'engine-public-surface',
      comment: 'src/api and src/cli use the engine through its public index (src/engine/index.ts) only, so its internals can change freely; the error catalogue (a leaf of plain data) is public too, so the CLI can render exit codes without loading the engine.',
      severity: 'error',
      from: { path: '^src/(api|cli)/' },
      to: { path: '^src/engine/', pathNot: '^src/engine/(index|errors)\\.ts$' },
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
