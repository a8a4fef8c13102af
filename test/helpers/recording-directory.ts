/**
 * A recording view of a real directory for tests that check which files an index touched, and
 * how: every call goes through to the directory, and is listed with the names it was given.
 */
import type { Directory } from '../../src/engine/index.js';

/** One call on the directory: its method and the file names of its first argument. */
export interface DirectoryCall {
  readonly op: string;
  readonly names: string[];
}

/** `dir` behind a proxy that records every method call into `calls` before making it. */
export function recordingDirectory<D extends Directory>(dir: D): { readonly dir: D; readonly calls: DirectoryCall[] } {
  const calls: DirectoryCall[] = [];
  const recorded = new Proxy(dir, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const names = typeof args[0] === 'string' ? [args[0]] : Array.isArray(args[0]) ? (args[0] as string[]) : [];
        calls.push({ op: String(prop), names });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { dir: recorded, calls };
}
