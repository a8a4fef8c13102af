/**
 * @module storage
 *
 * Implementations of the engine's `Directory` port: a local directory (the product's default), a
 * memory directory with a crash model (tests), and a fault-injecting decorator (tests). Cross-cutting
 * concerns (caching, retry, metrics) belong in decorators like the latter, never in flags.
 *
 * Storage may import node I/O modules and `src/engine`'s port types and errors, but never the
 * engine's codecs, commit logic or search, nor `src/api`, `src/cli` or `src/ingest`: it moves bytes
 * and does not know what they mean.
 */
export { LocalDirectory } from './local-directory.js';
export { MemoryDirectory } from './memory-directory.js';
export { FaultInjectingDirectory } from './fault-injecting-directory.js';
export type { FaultInjectingOptions, FaultOp, FaultSpec } from './fault-injecting-directory.js';
