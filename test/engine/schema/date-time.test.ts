import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseIsoDate, parseIsoDateTime } from '../../../src/engine/schema/date-time.js';

const anyInstant = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
const dayMs = 86_400_000;

describe('parseIsoDate', () => {
  it('agrees with Date on every day of years 0000-9999', () => {
    fc.assert(
      fc.property(anyInstant, (d) => {
        const iso = d.toISOString().slice(0, 10);
        assert.equal(parseIsoDate(iso), Math.floor(d.getTime() / dayMs) * dayMs, iso);
      }),
    );
  });

  it('accepts leap days only in leap years', () => {
    assert.equal(parseIsoDate('2020-02-29'), Date.UTC(2020, 1, 29));
    assert.equal(parseIsoDate('2000-02-29'), Date.UTC(2000, 1, 29));
    assert.ok(Number.isNaN(parseIsoDate('2019-02-29')));
    assert.ok(Number.isNaN(parseIsoDate('1900-02-29')));
  });

  it('returns NaN for anything but a real YYYY-MM-DD day', () => {
    for (const s of ['', '2020-1-01', '2020-01-1', '2020/01/01', '2020-13-01', '2020-00-10', '2020-04-31', '2020-01-00', '20200101', '2020-01-01T00:00', ' 2020-01-01', 'abcd-ef-gh']) {
      assert.ok(Number.isNaN(parseIsoDate(s)), s);
    }
  });

  it('maps years below 100 literally rather than to the 1900s', () => {
    assert.equal(parseIsoDate('0099-01-01'), new Date('0099-01-01T00:00:00Z').getTime());
  });
});

describe('parseIsoDateTime', () => {
  it('agrees with Date on every instant in UTC form', () => {
    fc.assert(
      fc.property(anyInstant, (d) => {
        assert.equal(parseIsoDateTime(d.toISOString()), d.getTime());
      }),
    );
  });

  it('applies offsets in each written form', () => {
    const utc = Date.UTC(2020, 0, 2, 3, 4, 5);
    assert.equal(parseIsoDateTime('2020-01-02T03:04:05Z'), utc);
    assert.equal(parseIsoDateTime('2020-01-02t03:04:05z'), utc);
    assert.equal(parseIsoDateTime('2020-01-02T05:04:05+02:00'), utc);
    assert.equal(parseIsoDateTime('2020-01-02T05:04:05+0200'), utc);
    assert.equal(parseIsoDateTime('2020-01-02T05:04:05+02'), utc);
    assert.equal(parseIsoDateTime('2020-01-01T22:34:05-04:30'), utc);
  });

  it('reads a missing zone as UTC, whatever the machine time zone', () => {
    assert.equal(parseIsoDateTime('2020-01-02T03:04:05'), Date.UTC(2020, 0, 2, 3, 4, 5));
    assert.equal(parseIsoDateTime('2020-01-02 03:04'), Date.UTC(2020, 0, 2, 3, 4));
    assert.equal(parseIsoDateTime('2020-01-02'), Date.UTC(2020, 0, 2));
  });

  it('keeps milliseconds and truncates finer fractions', () => {
    assert.equal(parseIsoDateTime('2020-01-02T03:04:05.5Z'), Date.UTC(2020, 0, 2, 3, 4, 5, 500));
    assert.equal(parseIsoDateTime('2020-01-02T03:04:05.123Z'), Date.UTC(2020, 0, 2, 3, 4, 5, 123));
    assert.equal(parseIsoDateTime('2020-01-02T03:04:05,123999999+00:00'), Date.UTC(2020, 0, 2, 3, 4, 5, 123));
  });

  it('returns NaN for anything but an ISO-8601 date-time', () => {
    for (const s of [
      'yesterday',
      'March 7, 2020',
      '2020-01-02T',
      '2020-01-02T3:04',
      '2020-01-02T24:00',
      '2020-01-02T23:60',
      '2020-01-02T23:59:60',
      '2020-01-02T03:04:05.',
      '2020-01-02T03:04:05Q',
      '2020-01-02T03:04:05Zx',
      '2020-01-02T03:04:05+2',
      '2020-01-02T03:04:05+02:0',
      '2020-01-02T03:04:05+24:00',
      '2020-01-02X03:04',
      '2019-02-29T00:00Z',
    ]) {
      assert.ok(Number.isNaN(parseIsoDateTime(s)), s);
    }
  });
});
