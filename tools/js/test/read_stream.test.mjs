// readStream's source (specs/README.md §9.10, §9.11): events or byte chunks in an iterable, or the
// stream's bytes or text whole; one object is no stream, and is named; SSE text given as an event
// and byte lines whose line ends were cut off say how to give them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readStream, readStreamAsync } from '../index.js';

const chunk = (delta, finish = null) => ({ object: 'chat.completion.chunk', id: 'c1', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const CHUNKS = [
  chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a": 1}' } }] }),
  chunk({}, 'tool_calls'),
];
const SSE = `${CHUNKS.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const BYTES = new TextEncoder().encode(SSE);
const BODY = { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hi' } }] };
const ids = (reply) => reply.calls.map((c) => c.id);

test('the stream\'s bytes or text whole read as its chunks do', async () => {
  const want = ids(readStream('openai', CHUNKS));
  assert.deepEqual(want, ['call_a']);
  for (const format of ['openai', null]) {
    assert.deepEqual(ids(readStream(format, BYTES)), want);
    assert.deepEqual(ids(readStream(format, SSE)), want);
    assert.deepEqual(ids(readStream(format, [BYTES.subarray(0, 7), BYTES.subarray(7)])), want);
    assert.deepEqual(ids(await readStreamAsync(format, BYTES)), want);
  }
});

test('one finished reply given as the stream is named as one', async () => {
  for (const format of ['openai', null]) {
    const named = (e) => e.code === 'malformed_stream' && e.finished_reply === true && e.looks_like === 'openai'
      && /a finished openai reply, not a stream of events: read it with read\(\)/.test(e.message);
    assert.throws(() => readStream(format, BODY), named);
    await assert.rejects(readStreamAsync(format, BODY), named);
  }
  assert.throws(() => readStream('openai', CHUNKS[0]), (e) => e.code === 'malformed_stream' && !e.finished_reply && /\[event\] for one/.test(e.message));
});

test('SSE text as an event, and byte lines without their line ends, say how to give them', () => {
  assert.throws(() => readStream('openai', [`data: ${JSON.stringify(CHUNKS[0])}`]), (e) => e.code === 'malformed_stream' && /it is SSE text/.test(e.message) && /feedBytes/.test(e.message));
  const lines = CHUNKS.map((c) => new TextEncoder().encode(`data: ${JSON.stringify(c)}`));
  assert.throws(() => readStream('openai', lines), (e) => e.code === 'malformed_stream' && /no line break/.test(e.message));
});
