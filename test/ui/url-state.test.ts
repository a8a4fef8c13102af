import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY_STATE, formatRange, formatState, parseRange, parseState, resultKey, toggleFilter } from '../../src/ui/url-state.js';

describe('parseState / formatState', () => {
  it('reads the issue example and writes it back unchanged', () => {
    const url = '?index=movies&q=matrix&genres=action&page=2';
    const state = parseState(url);
    assert.deepEqual(state, { index: 'movies', q: 'matrix', mode: 'lexical', sort: '', page: 2, filters: { genres: ['action'] } });
    assert.equal(formatState(state), url);
  });

  it('keeps repeated facet values, ranges, mode and sort', () => {
    const state = parseState('?index=m&q=a+b&mode=hybrid&sort=year:desc&genres=drama&genres=crime&year=1990..2000');
    assert.deepEqual(state.filters, { genres: ['drama', 'crime'], year: ['1990..2000'] });
    assert.equal(state.mode, 'hybrid');
    assert.equal(state.sort, 'year:desc');
    assert.equal(state.q, 'a b');
    assert.deepEqual(parseState(formatState(state)), state);
  });

  it('falls back to defaults for unusable values', () => {
    const state = parseState('?page=-3&mode=quantum&sort=year:sideways&index=');
    assert.deepEqual(state, EMPTY_STATE);
    assert.equal(formatState(EMPTY_STATE), '');
  });

  it('gives one result key to every page of a search', () => {
    const a = parseState('?index=m&q=x&page=1');
    const b = parseState('?index=m&q=x&page=7');
    assert.equal(resultKey(a), resultKey(b));
    assert.notEqual(resultKey(a), resultKey(parseState('?index=m&q=y')));
  });
});

describe('toggleFilter', () => {
  it('ticks and unticks a value, keeps field order and goes back to page 1', () => {
    const start = parseState('?index=m&genres=drama&year=1990..2000&page=3');
    const ticked = toggleFilter(start, 'genres', 'crime');
    assert.deepEqual(ticked.filters, { genres: ['drama', 'crime'], year: ['1990..2000'] });
    assert.equal(ticked.page, 1);
    const unticked = toggleFilter(toggleFilter(ticked, 'genres', 'drama'), 'genres', 'crime');
    assert.deepEqual(unticked.filters, { year: ['1990..2000'] });
    assert.deepEqual(toggleFilter(unticked, 'rating', '8..').filters, { year: ['1990..2000'], rating: ['8..'] });
  });
});

describe('parseRange', () => {
  it('reads closed, half-open and decimal ranges', () => {
    assert.deepEqual(parseRange('1990..2000'), { from: 1990, to: 2000 });
    assert.deepEqual(parseRange('8.5..'), { from: 8.5 });
    assert.deepEqual(parseRange('..-1.5'), { to: -1.5 });
  });

  it('reads ISO dates as epoch milliseconds and writes them back', () => {
    const r = parseRange('2023-01-01..2024-06-01T12:00:00Z');
    assert.deepEqual(r, { from: Date.UTC(2023, 0, 1), to: Date.UTC(2024, 5, 1, 12) });
    assert.equal(formatRange(r, true), '2023-01-01..2024-06-01T12:00:00.000Z');
    assert.equal(formatRange({ from: 1990, to: 2000 }), '1990..2000');
  });

  it('refuses what is not a range', () => {
    for (const t of ['action', '..', '1990', 'a..b', '1..2..3', '2023-13-45..', '2023..x']) assert.equal(parseRange(t), null, t);
  });
});
