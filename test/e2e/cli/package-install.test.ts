/**
 * Issue 18: the package installs as a command. Packs the built package (`npm pack`), installs the
 * tarball globally into a temporary prefix (`npm install -g`, dependencies from the registry or the
 * npm cache) and runs the installed `yarrow` with the Node that runs this test (CI runs it on Node
 * 20 and 24). The install must print no warning: an unsupported engine, a deprecated dependency or
 * a missing file would show up there first.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };

function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => { stdout += s; });
    child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
    child.once('error', reject);
    child.once('close', (code) => { resolve({ code, stdout, stderr }); });
  });
}

describe('the npm package', () => {
  it(`packs, installs globally into a temporary prefix with no warning, and runs yarrow --version (${pkg.name})`, { timeout: 300_000 }, async () => {
    assert.ok(existsSync(join(ROOT, pkg.bin.yarrow)), `${pkg.bin.yarrow} is built (npm run build)`);
    const work = await mkdtemp(join(tmpdir(), 'yarrow-pack-'));
    try {
      // A user config of our own: the machine's may hold settings npm warns about.
      const userconfig = join(work, 'npmrc');
      await writeFile(userconfig, 'fund=false\naudit=false\nupdate-notifier=false\n');
      // npm and the installed bin run on the Node that runs this test; settings that `npm test`
      // passes down (npm_config_*) are the machine's, not the user's who installs: left out.
      const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')));
      const env = { ...inherited, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, npm_config_userconfig: userconfig };
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      // The build already ran (npm test builds first): no prepack rebuild here.
      const packed = await run(npm, ['pack', '--ignore-scripts', '--pack-destination', work], { cwd: ROOT, env });
      assert.equal(packed.code, 0, packed.stderr);
      const tarball = (await readdir(work)).find((f) => f.endsWith('.tgz'));
      assert.ok(tarball !== undefined, 'npm pack wrote a tarball');
      assert.equal(tarball, `${pkg.name}-${pkg.version}.tgz`);

      const prefix = join(work, 'prefix');
      const installed = await run(npm, ['install', '-g', '--prefix', prefix, join(work, tarball)], { cwd: work, env });
      assert.equal(installed.code, 0, installed.stderr);
      const warnings = `${installed.stdout}\n${installed.stderr}`.split('\n').filter((line) => /\bwarn/i.test(line));
      assert.deepEqual(warnings, [], `npm install -g printed warnings on Node ${process.version}`);

      const bin = process.platform === 'win32' ? join(prefix, 'yarrow.cmd') : join(prefix, 'bin', 'yarrow');
      const version = await run(bin, ['--version'], { cwd: work, env });
      assert.equal(version.code, 0, version.stderr);
      assert.equal(version.stdout.trim(), pkg.version);
      assert.equal(version.stderr, '');
      // The installed command has its modes (and the files they load at start).
      const help = await run(bin, ['standalone', '--help'], { cwd: work, env });
      assert.equal(help.code, 0, help.stderr);
      assert.match(help.stdout, /Usage: yarrow standalone/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
