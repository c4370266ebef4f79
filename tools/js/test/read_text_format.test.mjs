// read(format, body, { textFormat }): calls a model wrote into a wire reply's assistant text
// (specs/README.md §1.10), through the package's public face as a user calls it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { read, Tools, ToolwireError } from '../index.js';

const body = (content) => ({
  id: 'c', object: 'chat.completion', model: 'm',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
});
const QWEN = '<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>';

test('the calls written in the text come after the wire calls, the text is the answer', () => {
  const reply = read('openai', body('Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'),
    { textFormat: 'hermes' });
  assert.deepEqual(reply.calls.map((c) => [c.name, c.arguments]), [['get_weather', { city: 'Paris' }]]);
  assert.equal(reply.text, 'Checking.');
  assert.deepEqual(reply.skipped, []);
  assert.equal(read('openai', body('plain')).calls.length, 0);
});

test('a call region that gave no call is a skipped record of the reply', () => {
  const reply = read('openai', body('Hi <tool_call>{oops}</tool_call>'), { textFormat: 'hermes' });
  assert.equal(reply.calls.length, 0);
  assert.equal(reply.skipped.length, 1);
  const [skipped] = reply.toJSON().skipped;
  assert.equal(skipped.item_index, null);
  assert.match(skipped.location, /^content\[3:\d+\]$/);
  assert.match(skipped.reason, /read as hermes/);
});

test('the offered tools type the lifted values and check every call', () => {
  const request = { tools: [{ type: 'function', function: { name: 'get_weather', parameters: {
    type: 'object', properties: { days: { type: 'integer', maximum: 2 } } } } }] };
  const reply = read('openai', body(QWEN), { textFormat: 'qwen3_coder', tools: request });
  assert.deepEqual(reply.calls[0].arguments, { days: 3 });
  assert.equal(reply.calls[0].argumentsInvalid, true);
  const same = read('openai', body(QWEN), { textFormat: 'qwen3_coder', tools: new Tools('openai', request) });
  assert.deepEqual(same.toJSON(), reply.toJSON());
});

test('an unknown text format is named before anything is read', () => {
  assert.throws(() => read('openai', body('x'), { textFormat: 'nope' }),
    (error) => error instanceof ToolwireError && error.code === 'unknown_format' && /nope/.test(error.message));
});
