/**
 * @module yarrow
 * The library API: `import { Index, LocalDirectory } from 'yarrow-search'` embeds the engine in any Node
 * program.
 */
export * from './engine/index.js';
export { LocalDirectory, MemoryDirectory } from './storage/index.js';
