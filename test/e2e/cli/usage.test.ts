/** The `yarrow` command line itself: modes, help, options and usage errors (SPEC §1). */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CLI, errorLines, Workspace, yarrow } from './cli-harness.js';

describe('yarrow (command line)', () => {
  let ws: Workspace;
  before(async () => { ws = await Workspace.create(); });
  after(async () => { await ws.cleanup(); });

  it('exits 1 with "No command given" and the usage when no mode is given', async () => {
    const run = await yarrow([]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^No command given\. If unsure, try 'yarrow standalone'/);
    assert.match(run.stderr, /Usage: yarrow <mode> \[options\]/);
    assert.match(run.stderr, /standalone/);
    assert.equal(run.stdout, '');
  });

  it('exits 1 with the index usage when index has no source kind', async () => {
    const run = await yarrow(['index']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /No index source given/);
    assert.match(run.stderr, /file \[options\]/);
  });

  it('exits 2 with one line naming an unknown mode', async () => {
    const run = await yarrow(['frobnicate']);
    assert.equal(run.code, 2);
    assert.deepEqual(run.stderr.trim().split('\n'), [`error: unknown command 'frobnicate' (see 'yarrow --help')`]);
  });

  it('exits 2 with one line naming an unknown option', async () => {
    const run = await yarrow(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'x.jsonl', '--colour']);
    assert.equal(run.code, 2);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^error: unknown option '--colour' \(see 'yarrow index file --help'\)$/);
  });

  it('exits 2 with one line naming a missing required option', async () => {
    const run = await yarrow(['index', 'file', '-c', 'conf.yml', '-u', 'x.jsonl']);
    assert.equal(run.code, 2);
    assert.deepEqual(run.stderr.trim().split('\n'), [`error: required option '-i, --index <name>' not specified (see 'yarrow index file --help')`]);
  });

  it('exits 2 with one line for a bad option value', async () => {
    for (const args of [
      ['standalone', '-p', '99999'],
      ['index', 'file', '-c', 'c.yml', '-i', 'm', '-u', 'x', '-l', 'verbose'],
      ['index', 'kafka', '-b', 'localhost', '-t', 't', '-i', 'm', '-c', 'c.yml'],
      ['index', 'kafka', '-b', 'localhost:9092', '-t', 't', '-i', 'm', '-c', 'c.yml', '-o', 'yesterday'],
    ]) {
      const run = await yarrow(args);
      assert.equal(run.code, 2, args.join(' '));
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.match(run.stderr, /^error: option '.*' argument '.*' is invalid/);
    }
  });

  it('exits 2 when -u has an unsupported scheme', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'ftp://host/file.jsonl']);
    assert.equal(run.code, 2);
    assert.deepEqual(errorLines(run), ['error: -u, --url: ftp://host/file.jsonl: unsupported scheme "ftp://" (use a path, file://, http://, https:// or s3://)']);
  });

  it('exits 2 when -e is given for a source that is not s3://', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'movies', '-u', 'x.jsonl', '-e', 'http://127.0.0.1:9000']);
    assert.equal(run.code, 2);
    assert.match(errorLines(run)[0], /-e, --endpoint applies to s3:\/\/ URLs only/);
  });

  it('prints every mode\'s options with --help and exits 0', async () => {
    const expected: Record<string, string[]> = {
      'index file': ['-c, --config <path>', '-i, --index <name>', '-u, --url <url>', '-r, --recursive', '-e, --endpoint <url>', '-l, --loglevel <level>', '-h, --help'],
      'index kafka': ['-b, --brokers <list>', '-t, --topic <name>', '-i, --index <name>', '-g, --group_id <id>', 'default: "yarrow"', '-o, --offset <position>', '--options <list>', '-c, --config <path>', '-l, --loglevel <level>'],
      'index api': ['-c, --config <path>', '-h, --host <host>', 'default: "0.0.0.0"', '-p, --port <port>', 'default: 8080', '-l, --loglevel <level>', '--help'],
      api: ['-c, --config <path>', '-h, --host <host>', '-p, --port <port>', 'default: 8080'],
      standalone: ['-c, --config <path>', '-h, --host <host>', '-p, --port <port>', 'default: "info"'],
      search: ['-c, --config <path>', '-h, --host <host>', '-p, --port <port>'],
    };
    for (const [mode, options] of Object.entries(expected)) {
      const run = await yarrow([...mode.split(' '), '--help']);
      assert.equal(run.code, 0, mode);
      assert.match(run.stdout, new RegExp(`^Usage: yarrow ${mode} \\[options\\]`), mode);
      for (const option of options) assert.ok(run.stdout.includes(option), `${mode} --help lacks ${option}`);
      assert.equal(run.stderr, '');
    }
  });

  it('takes -h as help in index file and as the host in the HTTP modes', async () => {
    const help = await yarrow(['index', 'file', '-h']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: yarrow index file/);
    // A port that is taken makes the server fail right after parsing, naming the host it tried.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as AddressInfo).port);
    for (const mode of [['api'], ['index', 'api'], ['standalone'], ['search']]) {
      const run = await ws.run([...mode, '-c', 'conf.yml', '-h', '127.0.0.1', '-p', port]);
      // -h consumed 127.0.0.1 as its value, so the mode ran and tried to bind that host.
      assert.equal(run.code, 2, mode.join(' '));
      assert.deepEqual(errorLines(run), [`error: cannot listen on 127.0.0.1:${port}: the address is already in use (another process holds it; choose another port with -p)`]);
      const missing = await ws.run([...mode, '-c', 'conf.yml', '-h']);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /option '-h, --host <host>' argument missing/);
    }
    await new Promise((resolve) => taken.close(resolve));
  });

  it('prints the version with --version', async () => {
    const run = await yarrow(['--version']);
    assert.equal(run.code, 0);
    assert.match(run.stdout.trim(), /^\d+\.\d+\.\d+/);
  });

  it('runs by its former name, dist/cli.js, too (an ES module that runs the executable, dist/cli.cjs)', async () => {
    const child = spawn(process.execPath, [join(dirname(CLI), 'cli.js'), 'index', 'file', '-c', 'missing.yml', '-i', 'x', '-u', 'y'], { cwd: ws.dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (s: string) => { stderr += s; });
    const [code] = (await once(child, 'close')) as [number | null];
    // The mode ran (argv parsed, the modes file loaded) and failed on the config, with its exit code.
    assert.equal(code, 2, stderr);
    assert.match(stderr, /^error: cannot read config file missing\.yml/m);
  });
});
