// Members named like Object.prototype's (`__proto__`, `constructor`, `toString`, …) are data like
// any other: JSON.parse makes them own members, and nothing the package builds from input may
// turn one into a prototype or read one it was not sent. Each hostile name is checked against a
// harmless name that sorts next to it: reading a reply with either must give the same answer.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { read, readText, readStream, Tools } from '../index.js';
import { compileExpression } from '../lib/expression.js';
import { loadFolder } from '../lib/loader.js';

// An own member, whatever its name (plain assignment of `__proto__` would set the prototype).
const put = (object, key, value) => Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });

const SPECS = new URL('../../../specs/', import.meta.url).pathname;
const SUITE = `${SPECS}conformance/`;
// Each hostile name with a stand-in no format names, next to it in code-point order.
const HOSTILE = [
  ['__proto__', '__protp__'], ['constructor', 'constructos'], ['prototype', 'prototypf'],
  ['toString', 'toStrinh'], ['hasOwnProperty', 'hasOwnPropertz'], ['valueOf', 'valueOg'], ['jmespathType', 'jmespathTypf'],
];

const copyOf = (v) => (Array.isArray(v) ? v.map(copyOf) : v !== null && typeof v === 'object'
  ? Object.entries(v).reduce((o, [k, x]) => put(o, k, copyOf(x)), {}) : v);

// Every object inside a value, as the list of steps that reaches it.
function* objectPaths(value, path = []) {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* objectPaths(v, [...path, i]);
  else if (value !== null && typeof value === 'object') {
    yield path;
    for (const [k, v] of Object.entries(value)) yield* objectPaths(v, [...path, k]);
  }
}

// A copy of `root` whose object at `path` holds `key`: `value` as an own member.
function injected(root, path, key, value) {
  const out = copyOf(root);
  const target = path.reduce((v, step) => v[step], out);
  put(target, key, copyOf(value));
  return out;
}

// What a read gives, as JSON text, with `from` written as `to` (or the error it throws).
function outcome(run, from, to) {
  let text;
  try { text = JSON.stringify(run()); } catch (error) {
    if (!error.code) throw error;
    text = JSON.stringify({ error: error.code, message: error.message, reply: error.reply ? JSON.stringify(error.reply) : null });
  }
  return text.split(from).join(to);
}

const wireCases = fs.readdirSync(SUITE, { recursive: true }).filter((f) => f.endsWith('.json')
  && !/^(expression|interpreter|spec-validation|text|tools)\//.test(f)).sort()
  .map((f) => [f, JSON.parse(fs.readFileSync(SUITE + f, 'utf8'))]);

test('a reply renamed from SDK keys never takes a __proto__ member as its prototype', () => {
  const text = '{"candidates":[{"content":{"role":"model","parts":[{"text":"hello","__proto__":{"functionCall":'
    + '{"name":"delete_everything","args":{"path":"/"}}}}]},"finish_reason":"STOP"}],"model_version":"x"}';
  for (const response of [text, JSON.parse(text)]) {
    const reply = read('gemini', response);
    assert.deepEqual(reply.calls, []);
    assert.equal(reply.text, 'hello');
    assert.equal(reply.finishReason, 'STOP');
  }
  assert.equal(Object.prototype.functionCall, undefined);
});

// The replies of the wire cases, and those of a format with normalize aliases keyed as its SDK
// writes them (so the renaming is fuzzed too).
function* replies() {
  const sdk = loadFolder(`${SPECS}wire`, SPECS).specs;
  for (const [file, data] of wireCases) {
    if (data.kind === 'stream') continue;
    const part = data.format && sdk[data.format] && sdk[data.format].data.normalize;
    for (const [n, t] of data.tests.entries()) {
      if (typeof t.response !== 'object' || t.response === null) continue;
      const options = { strict: t.strict ?? null, choice: t.choice ?? null };
      yield [`${file} test ${n}`, data.format ?? null, t.response, options];
      if (!part) continue;
      const wireToSdk = Object.fromEntries(Object.entries(part.aliases).map(([s, w]) => [w, s]));
      yield [`${file} test ${n} (SDK keys)`, data.format, sdkKeyed(t.response, wireToSdk, new Set(part.verbatim || [])), options];
    }
  }
}

// A value keyed as an SDK writes it: each wire key an alias names, renamed back.
function sdkKeyed(value, wireToSdk, verbatim) {
  if (Array.isArray(value)) return value.map((v) => sdkKeyed(v, wireToSdk, verbatim));
  if (value === null || typeof value !== 'object') return value;
  return Object.entries(value).reduce((o, [key, inner]) => put(o, Object.hasOwn(wireToSdk, key) ? wireToSdk[key] : key,
    verbatim.has(key) ? inner : sdkKeyed(inner, wireToSdk, verbatim)), {});
}

test('every wire reply reads alike with a hostile member or a harmless one at any place', () => {
  let checked = 0;
  for (const [what, format, response, options] of replies()) {
    const paths = [...objectPaths(response)];
    paths.forEach((path, i) => {
      const [key, standIn] = HOSTILE[i % HOSTILE.length]; // every name, spread over the places
      if (JSON.stringify(response).includes(key)) return;
      // the member holds another object of the same reply (a call item, a part, a message…)
      const value = paths[(i + 1) % paths.length].reduce((v, step) => v[step], response);
      const hostile = injected(response, path, key, value);
      const harmless = injected(response, path, standIn, value);
      // the reply as values, or as its JSON text (JSON.parse makes the member an own one), in turn
      const shape = i % 2 ? (v) => v : (v) => JSON.stringify(v);
      assert.equal(outcome(() => read(format, shape(hostile), options), key, standIn),
        outcome(() => read(format, shape(harmless), options), key, standIn), `${what}: ${key} at /${path.join('/')}`);
      checked++;
    });
  }
  assert.ok(checked > 1000, `only ${checked} readings`);
});

test('every streamed reply reads alike with a hostile member or a harmless one in its events', () => {
  let checked = 0;
  for (const [file, data] of wireCases) {
    if (data.kind !== 'stream') continue;
    for (const [n, t] of data.tests.entries()) {
      if (!Array.isArray(t.events) || !t.events.every((e) => e !== null && typeof e === 'object')) continue;
      [...objectPaths(t.events)].forEach((path, i) => {
        const [key, standIn] = HOSTILE[(i + n) % HOSTILE.length];
        if (JSON.stringify(t.events).includes(key)) return;
        const value = t.events[path[0]];
        const run = (events) => () => readStream(data.format ?? null, events).toJSON();
        assert.equal(outcome(run(injected(t.events, path, key, value)), key, standIn),
          outcome(run(injected(t.events, path, standIn, value)), key, standIn), `${file} test ${n}: ${key} at /${path.join('/')}`);
        checked++;
      });
    }
  }
  assert.ok(checked > 200, `only ${checked} streams`);
});

test('text grammars keep a hostile argument name as an argument', () => {
  const body = (content) => ({ choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }] });
  for (const [key] of HOSTILE) {
    const cases = [
      ['pythonic', `[f(a={'${key}': {'name': 'x'}})]`, { a: put({}, key, { name: 'x' }) }],
      ['hermes', `<tool_call>{"name": "f", "arguments": {"${key}": {"name": "x"}}}</tool_call>`, put({}, key, { name: 'x' })],
      ['qwen3_coder', `<tool_call>\n<function=f>\n<parameter=${key}>\n{"name": "x"}\n</parameter>\n</function>\n</tool_call>`, put({}, key, { name: 'x' })],
    ];
    for (const [format, text, args] of cases) {
      const [call] = readText(format, text).calls;
      assert.equal(call.name, 'f', `${format} ${key}`);
      assert.deepEqual(Object.keys(call.arguments), Object.keys(args), `${format} ${key}`);
      assert.equal(JSON.stringify(call.arguments), JSON.stringify(args), `${format} ${key}`);
      assert.equal(Object.getPrototypeOf(call.arguments), Object.prototype);
      const lifted = read('openai', body(text), { textFormat: format });
      assert.equal(JSON.stringify(lifted.calls[0].arguments), JSON.stringify(args));
    }
    assert.throws(() => readText('hermes', 'x', { params: put({}, key, 'a') }), new RegExp(`no parameter ${key}`));
    const [kw] = readText('pythonic', `[f(${key}=[1])]`).calls;
    assert.equal(JSON.stringify(kw.arguments), JSON.stringify(put({}, key, [1])), `pythonic keyword ${key}`);
  }
});

test('expressions read only the members a value holds', () => {
  const data = JSON.parse('{"__proto__": {"a": 1}, "hasOwnProperty": 2, "jmespathType": "Expref", "b": {}}');
  const value = (source, on = data) => compileExpression(source).evaluate(on);
  for (const name of ['constructor', 'toString', 'valueOf', 'prototype']) {
    assert.equal(value(name), null, name);
    assert.equal(value(`b.${name}`), null, name);
    assert.equal(value(`"${name}"`, {}), null, name);
  }
  assert.deepEqual(value('"__proto__"'), { a: 1 });
  assert.equal(value('a'), null);
  assert.equal(value('"__proto__"', {}), null);
  assert.equal(value('hasOwnProperty'), 2);
  assert.equal(value('type(@)'), 'object');
  assert.equal(value('length(keys(@))'), 4);
  assert.deepEqual(value('[?b]', [data, { b: { hasOwnProperty: 1 } }]), [{ b: { hasOwnProperty: 1 } }]);
  assert.equal(value('b == `{}`'), true);
  assert.equal(value('@ == @'), true);
  const merged = value('merge(@, `{"c": 1}`)');
  assert.equal(Object.getPrototypeOf(merged), Object.prototype);
  assert.deepEqual(Object.keys(merged), ['__proto__', 'hasOwnProperty', 'jmespathType', 'b', 'c']);
  assert.deepEqual(value('a.to_array(@)', {}), [null]); // a step after null still runs, as in npm and Python
  const hash = value('{"__proto__": b, x: `1`}');
  assert.deepEqual(Object.keys(hash), ['__proto__', 'x']);
  assert.equal(Object.getPrototypeOf(hash), Object.prototype);
});

test('tool checks see only the members the arguments hold', () => {
  const verdict = (schema, args) => {
    const tools = new Tools('openai', [{ type: 'function', function: { name: 'f', parameters: JSON.parse(schema) } }]);
    return tools.check({ name: 'f', arguments: JSON.parse(args), id: '', synthetic: false, arguments_undecodable: false });
  };
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assert.equal(verdict(`{"type": "object", "required": ["${name}"]}`, '{}').argumentsInvalid, true, name);
    assert.equal(verdict(`{"type": "object", "required": ["${name}"]}`, `{"${name}": 1}`).argumentsInvalid, false, name);
    const typed = `{"type": "object", "properties": {"${name}": {"type": "string"}}, "additionalProperties": false}`;
    assert.equal(verdict(typed, '{}').argumentsInvalid, false, name);
    assert.equal(verdict(typed, `{"${name}": "x"}`).argumentsInvalid, false, name);
    const wrong = verdict(typed, `{"${name}": 5}`);
    assert.deepEqual(wrong.argumentsErrors.map((e) => [e.pointer, e.keyword]), [[`/${name}`, 'type']], name);
  }
});
