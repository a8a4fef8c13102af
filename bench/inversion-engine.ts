/**
 * The parts of this checkout's engine that bench/inversion.bench.ts drives; with `--baseline`, the
 * same names are loaded from another checkout's sources, so both run the same benchmark code.
 */
export { getAnalyzer } from '../src/engine/analysis/index.js';
export { parseMapping } from '../src/engine/schema/mapping.js';
export { validateDocument } from '../src/engine/schema/document.js';
export { SegmentBuffer } from '../src/engine/segment/segment-buffer.js';
