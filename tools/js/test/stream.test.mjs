// What the stream conformance cases cannot carry (specs/README.md §9.11): events written with
// an SDK's own keys (google-genai's snake_case model_dump()) are renamed by the spec's
// `normalize` aliases before any rule sees them, so they accumulate as the wire events do.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadFolder, loadFile, compileSpec } from '../lib/loader.js';
import { Accumulator } from '../lib/stream.js';
import { growth, GROWTH_BOUND } from './growth.mjs';

const SPECS = new URL('../../../specs/', import.meta.url).pathname;
const bundled = loadFolder(`${SPECS}wire`, SPECS);
const specs = Object.fromEntries(Object.entries(bundled.specs).map(([name, s]) => [name, compileSpec(s.data)]));

// The SDK's keys: each wire key an alias names, renamed back (never inside a verbatim key).
function sdkKeyed(value, wireToSdk, verbatim) {
  if (Array.isArray(value)) return value.map((v) => sdkKeyed(v, wireToSdk, verbatim));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [
    wireToSdk[key] || key, verbatim.has(key) ? inner : sdkKeyed(inner, wireToSdk, verbatim)]));
}

function outcome(format, events) {
  const acc = new Accumulator(specs, format);
  const ready = events.flatMap((event) => acc.feed(event).map((u) => u.text));
  const reply = acc.reply();
  return { ready, calls: reply.calls, text: reply.text, finish_reason: reply.finish_reason, format: acc.spec.format };
}

const folder = `${SPECS}conformance/gemini/`;
const streamed = fs.readdirSync(folder).filter((n) => n.startsWith('stream_')).map((n) => JSON.parse(fs.readFileSync(folder + n, 'utf8')))
  .flatMap((c) => c.tests.filter((t) => t.events && !t.expect.error).map((t) => ({ name: c.description, events: t.events })));

test('snake_case gemini events accumulate as the wire events', () => {
  const { aliases, verbatim } = specs.gemini.data.normalize;
  const wireToSdk = Object.fromEntries(Object.entries(aliases).map(([sdk, wire]) => [wire, sdk]));
  assert.ok(streamed.length >= 4);
  for (const { name, events } of streamed) {
    const dumped = events.map((e) => sdkKeyed(e, wireToSdk, new Set(verbatim)));
    assert.notDeepEqual(dumped, events, name);
    assert.deepEqual(outcome('gemini', dumped), outcome('gemini', events), name);
  }
});

test('an event in its SDK envelope is read as the chunk inside it', () => {
  const chunk = { id: 'm1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] };
  const enveloped = outcome('mistral', [{ data: chunk }]);
  assert.deepEqual(enveloped, outcome('mistral', [chunk]));
  assert.equal(enveloped.text, 'Hi');
});

// A demo format whose `append` rule writes wherever the event says (§9.3).
const DEMO = `spec_version: 1
format: demo
title: Demo format
doc_ref: https://example.invalid/docs
sniff: {when: "type(message) == 'object'", priority: 10}
items:
  - select: "message.calls"
    type_field: type
unknown_items: refuse
calls:
  - {type: call, name: "name", arguments: "args", id: "id"}
stream:
  framing: sse
  ready: at_close
  rules:
    - {name: start, init: {value: "{message: {role: 'assistant'}}"}}
    - {name: call, when: "type(call) == 'object'", open: {list: "message.calls", key: "index", value: "call"}}
    - {name: text, append: {message.text: "piece", "message.calls[0].name": "name_piece"}}
`;

test('an append into a slot\'s item is malformed_stream, one outside every slot is joined', () => {
  const { spec, problems } = loadFile('demo.yaml', { 'demo.yaml': DEMO }, {}, SPECS);
  assert.deepEqual(problems, []);
  const acc = new Accumulator({ demo: compileSpec(spec.data) }, 'demo');
  acc.feed({ piece: 'Hel' });
  acc.feed({ piece: 'lo' });
  assert.equal(acc.snapshot().message.text, 'Hello');
  acc.feed({ call: { type: 'call', name: 'f' }, index: 0 });
  acc.feed({ piece: '!' });
  assert.equal(acc.snapshot().message.text, 'Hello!');
  assert.throws(() => acc.feed({ name_piece: 'x' }), (e) => e.code === 'malformed_stream' && e.rule === 'text' && /update\.append/.test(e.message));
});

// §9.5: every fault is kept; a failed or closed accumulator refuses more input.
const chunk = (delta, finish = null) => ({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const call = (index, id, name, args) => chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: args } }] });
const sse = (events) => Buffer.from(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));

test('a failure stays: every later call raises a fresh error caused by it', () => {
  const acc = new Accumulator(specs, 'openai');
  let first;
  try { acc.feed('not json'); } catch (e) { first = e; }
  assert.equal(first.code, 'malformed_stream');
  assert.throws(() => acc.feed(call(0, 'call_a', 'f', '{}')), (e) => e.code === 'malformed_stream' && e !== first && e.cause === first);
  assert.throws(() => acc.feedBytes(Buffer.from('data: {}\n\n')), (e) => e.cause === first);
  assert.throws(() => acc.reply(), (e) => e.code === 'malformed_stream');
});

test('an event after the input closed is malformed_stream', () => {
  const acc = new Accumulator(specs, 'openai');
  for (const e of [call(0, 'call_a', 'f', '{}'), chunk({}, 'tool_calls')]) acc.feed(e);
  acc.reply();
  assert.throws(() => acc.feed(chunk({ content: 'more' })), (e) => e.code === 'malformed_stream');
});

test('bytes that are not UTF-8 fail the stream after the events before them', () => {
  const acc = new Accumulator(specs, 'ollama');
  const line = (o) => `${JSON.stringify(o)}\n`;
  const good = line({ model: 'm', message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: {} } }] }, done: false });
  const bytes = Buffer.concat([Buffer.from(good), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]);
  const ready = acc.feedBytes(bytes);
  assert.deepEqual(ready.map((u) => u.text), ['call:f']);
  assert.throws(() => acc.feedBytes(Buffer.from('\n')), (e) => e.code === 'malformed_stream');
  const cut = new Accumulator(specs, 'openai'); // a character split between chunks is no fault
  const text = sse([chunk({ role: 'assistant', content: 'é' }), chunk({}, 'stop')]);
  const at = text.indexOf(0xc3) + 1;
  cut.feedBytes(text.subarray(0, at)); cut.feedBytes(text.subarray(at));
  assert.equal(cut.reply().text, 'é');
});

test('an event beyond the maximum event size is malformed_stream', () => {
  for (const data of [Buffer.from(`data: ${'x'.repeat(5000)}\n\n`), Buffer.from(`data: ${'x'.repeat(5000)}`), Buffer.from(`{"message": "${'y'.repeat(5000)}`), Buffer.from(': keep-alive\n'.repeat(500))]) {
    const acc = new Accumulator(specs, 'openai', { maxEventSize: 4096 });
    assert.throws(() => { for (let i = 0; i < data.length; i += 1000) acc.feedBytes(data.subarray(i, i + 1000)); }, (e) => e.code === 'malformed_stream', data.subarray(0, 20).toString());
  }
});

// Time growth n -> 4n in one run, in process CPU time (growth.mjs): linear is about 4, quadratic 16.
test('framing one event fed in pieces grows linearly', () => {
  const prepare = (n) => {
    const data = sse([chunk({ content: 'x'.repeat(n * 1024) })]);
    const pieces = []; for (let i = 0; i < data.length; i += 4096) pieces.push(data.subarray(i, i + 4096));
    return () => { const acc = new Accumulator(specs, 'openai'); for (const p of pieces) acc.feedBytes(p); };
  };
  const ratio = growth(prepare, 1024);
  assert.ok(ratio < GROWTH_BOUND, `4x the event took ${ratio.toFixed(1)}x the CPU time (linear: 4)`);
});

test('calls found by id grow linearly', () => {
  const prepare = (n) => {
    const events = [];
    for (let i = 0; i < n; i++) events.push(call(i, `call_${i}`, 'f', '{'));
    for (let i = 0; i < n; i++) events.push(chunk({ tool_calls: [{ id: `call_${i}`, function: { arguments: '}' } }] }));
    events.push(chunk({}, 'tool_calls'));
    return () => { const acc = new Accumulator(specs, 'openai'); for (const e of events) acc.feed(e); assert.equal(acc.reply().calls.length, n); };
  };
  const ratio = growth(prepare, 1000);
  assert.ok(ratio < GROWTH_BOUND, `4x the calls took ${ratio.toFixed(1)}x the CPU time (linear: 4)`);
});

test('a sniffed stream that starts with the provider\'s error is its stream_error', () => {
  const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
  for (const format of [null, 'anthropic']) {
    const acc = new Accumulator(specs, format);
    assert.throws(() => acc.feedBytes(Buffer.from(`event: error\ndata: ${JSON.stringify(overloaded)}\n\n`)),
      (e) => e.code === 'stream_error' && e.format === 'anthropic' && e.error_code === 'overloaded_error' && e.error_message === 'Overloaded');
    assert.equal(acc.spec.format, 'anthropic');
  }
  const gemini = { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } };
  assert.throws(() => new Accumulator(specs, null).feed(gemini), (e) => e.code === 'stream_error' && e.format === 'gemini' && e.error_code === 'UNAVAILABLE');
});

test('the openai chat stream helper\'s events read as the chunks they hold', () => {
  const helperCase = JSON.parse(fs.readFileSync(`${SPECS}conformance/openai/stream_sdk_helper_events_read_as_their_chunks.json`, 'utf8'));
  const { events } = helperCase.tests[0];
  const chunks = events.filter((e) => e.type === 'chunk').map((e) => e.chunk);
  assert.ok(events.length > chunks.length); // derived events came too
  for (const format of ['openai', null]) assert.deepEqual(outcome(format, events), outcome('openai', chunks));
  assert.throws(() => new Accumulator(specs, 'openai').feed({ type: 'chunk', snapshot: {} }), (e) => e.code === 'malformed_stream');
});
