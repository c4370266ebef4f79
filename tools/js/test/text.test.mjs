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
