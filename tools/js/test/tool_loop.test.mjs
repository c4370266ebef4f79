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
