// What the stream conformance cases cannot carry (specs/README.md §9.11): events written with
// an SDK's own keys (google-genai's snake_case model_dump()) are renamed by the spec's
// `normalize` aliases before any rule sees them, so they accumulate as the wire events do.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadFolder, loadFile, compileSpec } from '../lib/loader.js';
import { Accumulator } from '../lib/stream.js';

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
