// The tool loop as the README writes it, in JavaScript: what hasCalls means.
import test from 'node:test';
import assert from 'node:assert/strict';
import { read, readText } from '../index.js';

const chat = (finish, calls) => ({
  id: 'c', object: 'chat.completion', created: 0, model: 'm',
  choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content: null, tool_calls: calls.map(([name, args], i) => ({ id: `call_${i}`, type: 'function', function: { name, arguments: args } })) } }],
});

test('a reply whose only call was cut has no calls to act on', () => {
  const reply = read('openai', chat('length', [['get_weather', '{"city": "Par']]));
  assert.deepEqual(reply.fates(), ['dropped']);
  assert.equal(reply.hasCalls, false);
});

test('a reply cut after a complete call, or with a rejected call, still has calls', () => {
  assert.equal(read('openai', chat('length', [['a', '{}'], ['b', '{"x": 1}']])).hasCalls, true);
  assert.equal(read('openai', chat('tool_calls', [['a', '{oops']])).hasCalls, true);
});

test('a text reply whose only call was cut has no calls', () => {
  const reply = readText('hermes', '<tool_call>{"name": "g", "arguments": {"a": ');
  assert.deepEqual(reply.fates(), ['dropped']);
  assert.equal(reply.hasCalls, false);
});

const HERMES = '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>';
const chatText = (content) => ({ id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] });

test('calls lifted from text get the ids Python mints, and the turn carries them', () => {
  const reply = read('openai', chatText(`Sure. ${HERMES}${HERMES}`), { textFormat: 'hermes' });
  assert.deepEqual(reply.calls.map((c) => c.id), ['aefe4e95c', '553af602b']);
  assert.deepEqual(reply.turn.items, [0, 1]);
  const anthropic = { id: 'm', type: 'message', role: 'assistant', model: 'c', stop_reason: 'end_turn', content: [{ type: 'text', text: HERMES }] };
  const lifted = read('anthropic', anthropic, { textFormat: 'hermes' });
  assert.equal(lifted.calls[0].id, 'aefe4e95c');
  assert.deepEqual(lifted.turn.items.map((e) => (typeof e === 'number' ? e : e.type)), ['text', 0]);
});

test('a format that pairs results by name mints only when asked; ids needs textFormat', () => {
  const gemini = { candidates: [{ content: { role: 'model', parts: [{ text: HERMES }] } }] };
  assert.equal(read('gemini', gemini, { textFormat: 'hermes' }).calls[0].id, '');
  assert.equal(read('gemini', gemini, { textFormat: 'hermes', ids: 'mint' }).calls[0].id, 'aefe4e95c');
  assert.equal(read('gemini', gemini, { textFormat: 'hermes', ids: (c, i) => `${c.name}-${i}` }).calls[0].id, 'get_weather-0');
  assert.throws(() => read('openai', chatText('x'), { ids: 'mint' }), /needs textFormat/);
});

test('a part of a reply passed where a reply goes is named, never read as another format', () => {
  const choice = chat('length', [['get_weather', '{"city": "Paris"}']]).choices[0];
  for (const format of [null, 'openai']) {
    assert.throws(() => read(format, choice), (e) => e.code === 'malformed_response' && /one choice \(`choices\[i\]`\) of an openai reply, not a whole reply/.test(e.message) && !/cohere/.test(e.message));
  }
  assert.throws(() => read(null, choice.message), /the message of one choice/);
  assert.throws(() => read(null, { type: 'tool_use', id: 't', name: 'f', input: {} }), /one content block/);
  assert.throws(() => read(null, { role: 'model', parts: [] }), /the content of one candidate/);
});
