import assert from 'node:assert/strict';
import { CommanderError } from 'commander';
import { describe, it } from 'node:test';
import { buildProgram, DEFAULT_HOST, DEFAULT_PORT } from '../../src/cli/index.js';
import type { Invocation } from '../../src/cli/index.js';

async function parse(argv: string[]): Promise<{ invocation: Invocation | null; errors: string }> {
  let invocation: Invocation | null = null;
  let errors = '';
  const program = buildProgram('1.2.3', { writeOut: () => undefined, writeErr: (s) => { errors += s; } }, (i) => { invocation = i; });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
  }
  return { invocation, errors };
}

describe('buildProgram', () => {
  it('parses index file with the SPEC defaults', async () => {
    const { invocation } = await parse(['index', 'file', '-c', 'c.yml', '-i', 'movies', '-u', 'data/']);
    assert.deepEqual(invocation, {
      mode: 'index file',
      options: { config: 'c.yml', index: 'movies', url: 'data/', recursive: false, endpoint: undefined, loglevel: 'info' },
    });
  });

  it('parses long options too', async () => {
    const { invocation } = await parse(['index', 'file', '--config', 'c.yml', '--index', 'm', '--url', 's3://b/p', '--recursive', '--endpoint', 'http://h:1', '--loglevel', 'debug']);
    assert.deepEqual(invocation?.options, { config: 'c.yml', index: 'm', url: 's3://b/p', recursive: true, endpoint: 'http://h:1', loglevel: 'debug' });
  });

  it('parses index kafka options into typed values', async () => {
    const { invocation } = await parse(['index', 'kafka', '-b', 'a:9092, b:9093', '-t', 'docs', '-i', 'm', '-c', 'c.yml', '-o', 'last=10', '--options', 'fetch.max.bytes=1000,client.id=y']);
    assert.deepEqual(invocation, {
      mode: 'index kafka',
      options: {
        brokers: ['a:9092', 'b:9093'],
        topic: 'docs',
        index: 'm',
        group_id: 'yarrow',
        config: 'c.yml',
        loglevel: 'info',
        offset: { kind: 'last', count: 10 },
        options: { 'fetch.max.bytes': '1000', 'client.id': 'y' },
      },
    });
    const ts = await parse(['index', 'kafka', '-b', 'a:1', '-t', 't', '-i', 'm', '-c', 'c', '-o', 'ts=1700000000', '-g', 'g1']);
    assert.deepEqual(ts.invocation?.options, { brokers: ['a:1'], topic: 't', index: 'm', group_id: 'g1', config: 'c', loglevel: 'info', offset: { kind: 'timestamp', epochMs: 1700000000000 }, options: {} });
  });

  it('parses Nixiesearch 0.8\'s forms: --force_merge N, -o ts=<epoch ms>, -o last=<N>h', async () => {
    const file = await parse(['index', 'file', '-c', 'c.yml', '-i', 'm', '-u', 'data/', '--force_merge', '1']);
    assert.equal((file.invocation?.options as { forceMerge?: number }).forceMerge, 1);
    const bad = await parse(['index', 'file', '-c', 'c.yml', '-i', 'm', '-u', 'data/', '--force_merge', '0']);
    assert.equal(bad.invocation, null);
    assert.match(bad.errors, /--force_merge.*an integer >= 1/);
    const ms = await parse(['index', 'kafka', '-b', 'a:1', '-t', 't', '-i', 'm', '-c', 'c', '-o', 'ts=1700000000123']);
    assert.deepEqual((ms.invocation?.options as { offset: unknown }).offset, { kind: 'timestamp', epochMs: 1700000000123 });
    const before = Date.now();
    const last = await parse(['index', 'kafka', '-b', 'a:1', '-t', 't', '-i', 'm', '-c', 'c', '-o', 'last=2h']);
    const { epochMs } = (last.invocation?.options as { offset: { kind: string; epochMs: number } }).offset;
    assert.ok(epochMs >= before - 2 * 3_600_000 && epochMs <= Date.now() - 2 * 3_600_000, String(epochMs));
    for (const o of ['last=0h', 'last=1w', 'ts=abc']) assert.equal((await parse(['index', 'kafka', '-b', 'a:1', '-t', 't', '-i', 'm', '-c', 'c', '-o', o])).invocation, null, o);
  });

  it('gives the HTTP modes host 0.0.0.0 and port 8080 by default, and -h as the host', async () => {
    assert.deepEqual((await parse(['standalone'])).invocation, { mode: 'standalone', options: { config: undefined, host: DEFAULT_HOST, port: DEFAULT_PORT, loglevel: 'info', explicit: [] } });
    assert.equal(DEFAULT_HOST, '0.0.0.0');
    assert.equal(DEFAULT_PORT, 8080);
    assert.deepEqual((await parse(['index', 'api', '-c', 'c.yml', '-h', '127.0.0.1', '-p', '9200'])).invocation, {
      mode: 'index api',
      options: { config: 'c.yml', host: '127.0.0.1', port: 9200, loglevel: 'info', explicit: ['host', 'port'] },
    });
  });

  it('requires a config for api and search but not for standalone', async () => {
    for (const mode of ['api', 'search']) {
      const { invocation, errors } = await parse([mode]);
      assert.equal(invocation, null);
      assert.match(errors, /required option '-c, --config <path>' not specified/);
    }
  });
});
