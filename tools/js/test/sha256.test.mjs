// The browser-safe SHA-256 behind minted ids gives node:crypto's digests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256Hex } from '../lib/sha256.js';

test('sha256Hex equals node:crypto on every padding boundary and on non-ASCII text', () => {
  const texts = ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(63), 'x'.repeat(64),
    'x'.repeat(119), 'é☃😀'.repeat(40), '0\nget_weather\n{"city": "Paris"}'];
  for (const text of texts) {
    assert.equal(sha256Hex(text), createHash('sha256').update(text, 'utf8').digest('hex'), JSON.stringify(text).slice(0, 40));
  }
});
