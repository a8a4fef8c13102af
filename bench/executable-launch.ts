/**
 * How the built `yarrow` executable starts node, read from its shebang line
 * (`#!/usr/bin/env -S VAR=value node --flag ...`, src/cli.ts): benches that start `node
 * dist/cli.js` pass the same environment and options, so they run what the installed command runs.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The node options and environment assignments of `cli`'s shebang (none when the file is missing). */
export function executableLaunch(cli: string): { flags: string[]; env: Record<string, string> } {
  if (!existsSync(cli)) return { flags: [], env: {} };
  const shebang = readFileSync(cli, 'latin1').slice(0, 1024).split('\n', 1)[0] ?? '';
  const words = /^#!\S*env\s+(?:-S\s+)?(.*)$/.exec(shebang)?.[1].trim().split(/\s+/) ?? [];
  const node = words.findIndex((w) => /(^|\/)node$/.test(w));
  const env = Object.fromEntries(words.slice(0, Math.max(node, 0)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { flags: node < 0 ? [] : words.slice(node + 1), env };
}
