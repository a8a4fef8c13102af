/** Config problems reach the user as one line naming file, line and path; exit code 2 (SPEC §2). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorLines, movieLines, Workspace } from './cli-harness.js';

const indexFile = (config: string): string[] => ['index', 'file', '-c', config, '-i', 'movies', '-u', 'movies.jsonl'];

describe('yarrow index file (config)', () => {
  let ws: Workspace;
  before(async () => {
    ws = await Workspace.create();
    await ws.write('movies.jsonl', movieLines('m', 2));
  });
  after(async () => { await ws.cleanup(); });

  it('exits 2 naming a config file that does not exist', async () => {
    const run = await ws.run(indexFile('missing.yml'));
    assert.equal(run.code, 2);
    assert.deepEqual(errorLines(run), ['error: cannot read config file missing.yml: no such file']);
  });

  it('exits 2 naming the path and line of a schema error', async () => {
    await ws.write('bad-type.yml', 'schema:\n  movies:\n    fields:\n      title: { type: text }\n      year:  { type: integer }\n');
    const run = await ws.run(indexFile('bad-type.yml'));
    assert.equal(run.code, 2);
    const [line] = errorLines(run);
    assert.match(line, /^error: bad-type\.yml:5: schema\.movies\.fields\.year\.type: expected one of id, text, text\[\], int, .* but got "integer"$/);
  });

  it('exits 2 naming an unknown key with the keys allowed there', async () => {
    await ws.write('bad-key.yml', 'schema:\n  movies:\n    fields:\n      title:\n        type: text\n        sortable: true\n');
    const run = await ws.run(indexFile('bad-key.yml'));
    assert.equal(run.code, 2);
    assert.deepEqual(errorLines(run), ['error: bad-key.yml:6: schema.movies.fields.title.sortable: unknown key; expected one of type, store, filter, facet, sort, required, search, suggest']);
  });

  it('exits 2 naming the line of a YAML syntax error', async () => {
    await ws.write('bad-yaml.yml', 'schema:\n  movies:\n    fields: [title\n');
    const run = await ws.run(indexFile('bad-yaml.yml'));
    assert.equal(run.code, 2);
    assert.match(errorLines(run)[0], /^error: bad-yaml\.yml:\d+: invalid YAML: /);
  });

  it('exits 2 when -i names an index the config does not define', async () => {
    const run = await ws.run(['index', 'file', '-c', 'conf.yml', '-i', 'films', '-u', 'movies.jsonl']);
    assert.equal(run.code, 2);
    assert.deepEqual(errorLines(run), ['error: -i, --index: the config conf.yml has no index "films" in its schema (it defines movies)']);
  });

  it('substitutes ${VAR} and ${VAR:-default} from the environment', async () => {
    const withDefault = await ws.run(indexFile('conf.yml'));
    assert.equal(withDefault.code, 0, withDefault.stderr);
    assert.deepEqual(await ws.ids('movies', 'data'), ['m1', 'm2']);
    const fromEnv = await ws.run(indexFile('conf.yml'), { DATA_DIR: 'elsewhere' });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.deepEqual(await ws.ids('movies', 'elsewhere'), ['m1', 'm2']);
  });

  it('exits 2 naming an unset variable and its line', async () => {
    await ws.write('env.yml', 'store:\n  local: { path: "${YARROW_TEST_UNSET_DIR}/data" }\nschema:\n  movies:\n    fields:\n      year: { type: int }\n');
    const run = await ws.run(indexFile('env.yml'));
    assert.equal(run.code, 2);
    assert.deepEqual(errorLines(run), ['error: env.yml:2: environment variable YARROW_TEST_UNSET_DIR is not set (write ${YARROW_TEST_UNSET_DIR:-default} to give a default)']);
  });
});
