// A provider's own text enters an error's message bounded, on one line, its control
// characters escaped, as the Python package shows it (tests/test_provider_text.py compares
// the two character for character); the whole text stays on the error's field.
import test from 'node:test';
import assert from 'node:assert/strict';
import { read, Accumulator } from '../index.js';

const UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = 'Rate limit\r\nreached\x1b[2J\u202e end';
const HUGE = 'x'.repeat(5 << 20);

function caught(run) {
  try { run(); } catch (error) { return error; }
  throw new Error('no error raised');
}

test('a provider error body gives a bounded, escaped message and keeps its text', () => {
  const error = caught(() => read('openai', { error: { message: HOSTILE + HUGE, type: 'server_error' } }));
  assert.equal(error.code, 'provider_error');
  assert.ok(!UNSAFE.test(error.message), error.message.slice(0, 200));
  assert.ok(error.message.length < 1200, String(error.message.length));
  assert.ok(error.message.includes('Rate limit reached\\x1b[2J\\u202e endxxx'));
  assert.ok(error.message.endsWith(`… (cut: ${(HOSTILE.length + HUGE.length).toLocaleString('en-US')} characters in all)`));
  assert.equal(error.error_message, HOSTILE + HUGE);
});

test('a stream error event gives a one-line message and keeps its text', () => {
  const acc = new Accumulator('anthropic');
  const said = `line one\nline two\x1b[31m${HUGE}`;
  const error = caught(() => acc.feed({ type: 'error', error: { type: 'overloaded_error', message: said } }));
  assert.equal(error.code, 'stream_error');
  assert.ok(!UNSAFE.test(error.message) && error.message.length < 1200);
  assert.ok(error.message.startsWith('line one line two\\x1b[31mxxx'), error.message.slice(0, 80));
  assert.equal(error.error_message, said);
});
