import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { invalidUtf8Offset } from '../../../src/engine/schema/utf8.js';

describe('invalidUtf8Offset', () => {
  it('finds the first byte that is not well-formed UTF-8', () => {
    assert.equal(invalidUtf8Offset(Buffer.from('héllo €𝄞')), -1);
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0x62, 0xff, 0x63])), 2);
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0xc0, 0x80])), 1, 'overlong');
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0xed, 0xa0, 0x80])), 1, 'surrogate');
    assert.equal(invalidUtf8Offset(Buffer.from([0xf4, 0x90, 0x80, 0x80])), 0, 'past U+10FFFF');
    assert.equal(invalidUtf8Offset(Buffer.from([0x61, 0xe2, 0x82])), 1, 'truncated');
  });
});
