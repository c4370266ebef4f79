// The tool loop's other half through the package's face (specs/README.md §6.2-6.3): what the
// conformance cases cannot carry — keys that are calls, errors as Error values, the ways a
// results argument is wrong, and a reply read through a registry of your own.
import test from 'node:test';
import assert from 'node:assert/strict';
import { read, convert, Registry, ToolCall, TextReply, readText } from '../index.js';

const ANTHROPIC = {
  content: [
    { type: 'text', text: 'Checking.' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: { zone: 'UTC' } },
  ],
  stop_reason: 'tool_use',
};
const chat = (calls, finish = 'tool_calls') => ({ choices: [{ message: { content: null, tool_calls: calls.map(([id, name, args]) => ({ id, type: 'function', function: { name, arguments: args } })) }, finish_reason: finish }] });
const renderError = (pattern) => (error) => error.code === 'render_error' && pattern.test(error.message);

test('results keyed by the call, its id, its index or given in call order answer alike', () => {
  const reply = read('anthropic', ANTHROPIC);
  const [weather, time] = reply.calls;
  const want = reply.answer(new Map([[weather, 'sunny'], [time, '12:00']]));
  assert.deepEqual(want[0].content.map((r) => [r.tool_use_id, r.content]), [['toolu_1', 'sunny'], ['toolu_2', '12:00']]);
  assert.deepEqual(reply.answer(new Map([['toolu_1', 'sunny'], [1, '12:00']])), want);
  assert.deepEqual(reply.answer(['sunny', '12:00']), want);
  assert.deepEqual(reply.answer(new Map([[new ToolCall(weather.toJSON()), 'sunny'], ['toolu_2', '12:00']])), want);
});

test('an Error is an error result naming its type', () => {
  const reply = read('anthropic', ANTHROPIC);
  const [, failed] = reply.answer(['sunny', new RangeError('no such zone')])[0].content;
  assert.deepEqual(failed, { type: 'tool_result', tool_use_id: 'toolu_2', content: 'RangeError: no such zone', is_error: true });
  const [, labelled] = read('openai', chat([['c1', 'f', '{}'], ['c2', 'g', '{}']])).answer(['ok', new TypeError('')]);
  assert.equal(labelled.content, 'Error: TypeError');
});

test('a results argument that cannot answer the turn is refused, saying why', () => {
  const reply = read('anthropic', ANTHROPIC);
  assert.throws(() => reply.answer(['sunny']), renderError(/one result per call of reply\.runnableCalls, in order \(2\), got 1/));
  assert.throws(() => reply.answer({ toolu_1: 'a', toolu_2: 'b' }), TypeError);
  assert.throws(() => reply.answer(new Map([[0, 'a']])), renderError(/no result for call 1 \(get_time 'toolu_2'\)/));
  assert.throws(() => reply.answer(new Map([[0, 'a'], ['toolu_1', 'b'], [1, 'c']])), renderError(/two results for call 0/));
  assert.throws(() => reply.answer(new Map([[0, 'a'], [1, () => 1]])), renderError(/must be JSON data/));
  assert.throws(() => reply.answer(new Map([[0, 'a'], [1, 'b'], [2, 'c']])), renderError(/no call 2: the reply has 2/));
  assert.throws(() => reply.answer(new Map([[0, 'a'], ['toolu_9', 'b']])), renderError(/no call of this reply is "toolu_9"/));
  assert.throws(() => reply.answer(new Map([[0, 'a'], [true, 'b']])), TypeError);
  const twins = read('openai', chat([['same', 'f', '{}'], ['same', 'f', '{}']]));
  assert.throws(() => twins.answer(new Map([['same', 'a']])), renderError(/2 calls of this reply match "same"/));
  assert.equal(twins.answer(new Map([[twins.calls[0], 'a'], [twins.calls[1], 'b']])).length, 2); // the very calls are keys
});

test('a dropped call takes no result, and a rejected one given none gets its error result', () => {
  const cut = read('openai', chat([['c1', 'f', '{}'], ['c2', 'g', '{"a":']], 'length'));
  assert.deepEqual(cut.fates(), ['runnable', 'dropped']);
  assert.throws(() => cut.answer(new Map([[0, 'ok'], [1, 'late']])), renderError(/call 1 \(g\) was dropped/));
  assert.throws(() => cut.answer(['ok', 'late']), renderError(/runnableCalls, in order \(1\), got 2/));
  assert.deepEqual(cut.answer(['ok']), [{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]);
  const bad = read('openai', chat([['c1', 'f', '{}'], ['c2', 'g', '{"a":']]));
  assert.deepEqual(bad.fates(), ['runnable', 'rejected']);
  const [, answered] = bad.answer(['ok']); // one per runnable call; the rejected one gets its error
  assert.equal(answered.content, bad.errorResult(bad.calls[1]));
  assert.match(answered.content, /^Error: the arguments of the call to 'g' could not be decoded \(.+\); send the call again/);
  assert.throws(() => bad.errorResult(bad.calls[0]), TypeError);
  assert.equal(TextReply.errorResult(bad.calls[1]), answered.content);
  assert.equal(readText('hermes', 'plain').errorResult(bad.calls[1].toJSON()), answered.content);
});

test('the assistant turn echoes the reply and leaves the dropped call out', () => {
  const cut = read('openai', chat([['c1', 'f', '{}'], ['c2', 'g', '{"a":']], 'length'));
  assert.deepEqual(cut.assistantMessage(), { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] });
});

test('a choice the content filter stopped, without a message, ends the loop with no turn to write back', () => {
  const reply = read('openai', { object: 'chat.completion', choices: [{ index: 0, finish_reason: 'content_filter', content_filter_results: { violence: { filtered: true, severity: 'medium' } } }] });
  assert.equal(reply.hasCalls, false);
  assert.deepEqual([reply.calls.length, reply.finishReason, reply.truncated], [0, 'content_filter', false]);
  assert.throws(() => reply.assistantMessage(), renderError(/holds no text and no call/));
  assert.deepEqual(reply.answer([]), []);
});

test('convert refuses what the target cannot express and mints ids on request', () => {
  const gemini = read('gemini', { candidates: [{ content: { role: 'model', parts: [
    { functionCall: { name: 'f', args: { a: 1 } }, thoughtSignature: 'c2ln' }] }, finishReason: 'STOP' }] });
  assert.throws(() => convert(gemini, 'openai'), renderError(/call 0 \(f\) has no id/));
  assert.throws(() => convert(gemini, 'anthropic', { ids: 'mint' }), renderError(/provider data \["thoughtSignature"\]/));
  const minted = convert(gemini, 'openai', { ids: 'mint', lossy: true });
  assert.match(minted.tool_calls[0].id, /^[0-9a-f]{9}$/);
  const seen = [];
  convert(gemini, 'anthropic', { lossy: true, ids: (call, index) => { seen.push(call instanceof ToolCall, call.name, index); return `toolu_${index}`; } });
  assert.deepEqual(seen, [true, 'f', 0]);
  assert.throws(() => convert(gemini, 'openai', { ids: 'random' }), TypeError);
  assert.throws(() => convert(gemini, 'no_such_format'), (e) => e.code === 'unknown_format');
});

test('a reply of a format only your registry holds renders through it, and says so without it', () => {
  const mine = Registry.bundled().withSpecs({ wire: { acme: 'spec_version: 1\nformat: acme\ntitle: Acme\ndoc_ref: https://acme.invalid/docs\nextends: openai\n' } });
  const reply = mine.read('acme', chat([['c1', 'f', '{}']]));
  assert.throws(() => reply.assistantMessage(), renderError(/bundled registry has no format 'acme'.*registry/));
  assert.throws(() => reply.answer(['ok']), renderError(/registry/));
  assert.equal(reply.assistantMessage({ registry: mine }).tool_calls[0].id, 'c1');
  assert.deepEqual(reply.answer(['ok'], { registry: mine }), [{ role: 'tool', tool_call_id: 'c1', content: 'ok' }]);
  assert.equal(convert(reply, 'acme', { registry: mine }).tool_calls[0].id, 'c1');
});
