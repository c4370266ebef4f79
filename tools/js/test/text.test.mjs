// What the text conformance cases cannot carry: the caller's tools typing xml values
// (specs/README.md §1b.4), parameters, and a spec that breaks the meta-schema.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { textScanner } from '../lib/text.js';

const spec = (format) => fs.readFileSync(new URL(`../../../specs/text/${format}.yaml`, import.meta.url), 'utf8');
const qwen = (params) => `<tool_call>\n<function=f>\n${Object.entries(params).map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join('')}</function>\n</tool_call>`;
const SCHEMA = {
  properties: {
    n: { type: 'integer' }, x: { type: 'number' }, b: { type: 'boolean' }, s: { type: 'string' },
    o: { type: 'object' }, either: { anyOf: [{ type: 'null' }, { type: 'integer' }] }, loose: {},
  },
};

test('the tool schema types each value by its declared types', () => {
  const read = textScanner(spec('seed_oss'), {}, { tools: { f: SCHEMA } });
  const text = '<seed:tool_call><function=f><parameter=n>42</parameter><parameter=x>2.5</parameter><parameter=b>true</parameter>'
    + '<parameter=s>42</parameter><parameter=o>{"k": 1}</parameter><parameter=either>null</parameter><parameter=loose>7</parameter>'
    + '<parameter=extra>7</parameter></function></seed:tool_call>';
  assert.deepEqual(read(text).calls[0].arguments, { n: 42, x: 2.5, b: true, s: '42', o: { k: 1 }, either: null, loose: '7', extra: '7' });
});

test('a value that reads as none of its types stays the string written', () => {
  const read = textScanner(spec('seed_oss'), {}, { tools: { f: SCHEMA } });
  const text = '<seed:tool_call><function=f><parameter=n>4.0</parameter><parameter=b>yes</parameter></function></seed:tool_call>';
  assert.deepEqual(read(text).calls[0].arguments, { n: '4.0', b: 'yes' });
});

test('a call whose tool is not given follows the spec values; tools may be an object with parameters(name)', () => {
  const tools = { parameters: (name) => (name === 'g' ? SCHEMA : null) };
  const read = textScanner(spec('seed_oss'), {}, { tools });
  assert.deepEqual(read('<seed:tool_call><function=f><parameter=n>42</parameter></function></seed:tool_call>').calls[0].arguments, { n: '42' });
  assert.deepEqual(read('<seed:tool_call><function=g><parameter=n>42</parameter></function></seed:tool_call>').calls[0].arguments, { n: 42 });
});

test('without tools json-or-string values decode whole JSON texts', () => {
  assert.deepEqual(textScanner(spec('qwen3_coder'))(qwen({ n: '42', s: 'Paris' })).calls[0].arguments, { n: 42, s: 'Paris' });
});

test('a parameter value is checked against its pattern, an undeclared parameter refused', () => {
  assert.throws(() => textScanner(spec('hermes'), { tag: 'bad tag' }), /pattern/);
  assert.throws(() => textScanner(spec('hermes'), { nope: 'x' }), /no parameter nope/);
  assert.equal(textScanner(spec('hermes'), { tag: 'fn' })('<fn>{"name": "f"}</fn>').calls[0].name, 'f');
});

test('a text spec that breaks the meta-schema does not load', () => {
  assert.throws(() => textScanner('kind: text\nspec_version: 1\nformat: x\nblock: {open: 5}\npayload: []\n'), /meta-schema/);
});

// xml-elements (specs/README.md §1b.11): the same texts, schemas and expectations as
// tests/test_text_elements.py, so both implementations type nested values alike.
const NS = ']<]minimax[>[';
const el = (name, body) => `${NS}<${name}>${body}${NS}</${name}>`;
const m3 = (fn, body) => `${NS}<tool_call>\n${NS}<invoke name="${fn}">${body}${NS}</invoke>\n${NS}</tool_call>`;
const ORDER = m3('create_order', el('user_id', '42') + el('urgent', 'true')
  + el('shipping', el('city', 'Singapore') + el('zip', '018956'))
  + el('items', el('item', el('sku', 'book-001') + el('qty', '2')) + el('item', el('qty', '5')))
  + el('metadata', el('score', '42') + el('rank', '7'))
  + el('duplicate_demo', el('tag', 'a') + el('tag', 'b'))
  + el('mismatch', el('x', '1') + el('x', '2'))
  + el('unknown_struct', el('a', '1') + el('a', '2'))
  + el('tags', '3') + el('tags', '4') + el('note', el('b', 'bold')));
const ORDER_SCHEMA = {
  type: 'object',
  properties: {
    user_id: { type: 'integer' }, urgent: { type: 'boolean' },
    shipping: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } },
    items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } },
    metadata: { type: 'object', additionalProperties: { type: 'integer' } },
    duplicate_demo: { type: 'object', properties: { tag: { type: 'string' } } },
    mismatch: { type: 'array', items: { type: 'integer' } },
    tags: { type: 'array', items: { type: 'integer' } },
    note: { type: 'string' },
  },
};
const CONVERT = m3('convert', el('whole', '5.0') + el('flag', ' true ') + el('payload', '{"nested":true}') + el('list', '[1,2]')
  + el('loose', '42') + el('either', 'null') + el('word', 'forty'));
const CONVERT_SCHEMA = {
  properties: {
    whole: { type: 'number' }, flag: { type: 'boolean' }, payload: { type: 'object' }, list: { type: 'array' }, loose: {},
    either: { anyOf: [{ type: 'integer' }, { type: 'null' }] }, word: { type: 'integer' },
  },
};

test('xml-elements: the schema makes arrays of nodes and types their leaves', () => {
  const read = textScanner(spec('minimax_m3'), {}, { tools: { create_order: ORDER_SCHEMA } });
  assert.deepEqual(read(ORDER).calls[0].arguments, {
    user_id: 42, urgent: true, shipping: { city: 'Singapore', zip: '018956' }, items: [{ sku: 'book-001', qty: 2 }, { qty: 5 }],
    metadata: { score: 42, rank: 7 }, duplicate_demo: { tag: ['a', 'b'] }, mismatch: [1, 2], unknown_struct: { a: ['1', '2'] },
    tags: [3, 4], note: { b: 'bold' },
  });
});

test('xml-elements: leaves are typed by the typed-parameters rule', () => {
  const read = textScanner(spec('minimax_m3'), {}, { tools: { convert: CONVERT_SCHEMA } });
  assert.deepEqual(read(CONVERT).calls[0].arguments, { whole: 5, flag: true, payload: { nested: true }, list: [1, 2], loose: '42', either: null, word: 'forty' });
});

test('xml-elements: a call whose tool is not given keeps objects and strings; tools may have parameters(name)', () => {
  const other = textScanner(spec('minimax_m3'), {}, { tools: { other: CONVERT_SCHEMA } })(CONVERT).calls[0].arguments;
  assert.equal(other.whole, '5.0'); assert.equal(other.flag, ' true ');
  assert.deepEqual(textScanner(spec('minimax_m3'))(ORDER).calls[0].arguments.items, { item: [{ sku: 'book-001', qty: '2' }, { qty: '5' }] });
  const tools = { parameters: (name) => (name === 'convert' ? CONVERT_SCHEMA : null) };
  assert.equal(textScanner(spec('minimax_m3'), {}, { tools })(CONVERT).calls[0].arguments.whole, 5);
});

test('xml-elements: a broken call is flagged whatever the tools', () => {
  const read = textScanner(spec('minimax_m3'), {}, { tools: { convert: CONVERT_SCHEMA } });
  const [c] = read(m3('convert', `${el('whole', '5')}stray`)).calls;
  assert.equal(c.arguments_undecodable, true); assert.equal(c.arguments_error_code, 'text-between-elements');
});
