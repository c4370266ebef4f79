// What the conformance cases cannot carry (specs/README.md §1.4.1): a reply handed over as
// values holding what no JSON text can hold (a cycle, NaN, an infinity) is malformed, as
// its text would be.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadFolder, compileSpec } from '../lib/loader.js';
import { read } from '../lib/interpreter.js';

const SPECS = new URL('../../../specs/', import.meta.url).pathname;
const bundled = loadFolder(`${SPECS}wire`, SPECS);
const openai = compileSpec(bundled.specs.openai.data);
const anthropic = compileSpec(bundled.specs.anthropic.data);

const chat = (args) => ({ choices: [{ message: { tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: args } }] }, finish_reason: 'tool_calls' }] });

function malformed(run, pattern) {
  assert.throws(run, (error) => error.code === 'malformed_response' && pattern.test(error.message));
}

test('a cyclic arguments object is malformed at once', () => {
  const args = { a: 1 };
  args.self = args;
  malformed(() => read(openai, chat(args)), /holds itself/);
  const list = [1];
  list.push(list);
  malformed(() => read(openai, chat({ list })), /holds itself/);
});

test('NaN and the infinities in an arguments object are malformed', () => {
  for (const value of [NaN, Infinity, -Infinity, [1, NaN], { deep: [Infinity] }]) {
    malformed(() => read(openai, chat({ x: value })), /is no JSON number/);
  }
});

test('a cyclic server call is malformed at once', () => {
  const query = { q: 'x' };
  query.again = query;
  const data = { content: [{ type: 'server_tool_use', id: 's1', name: 'web_search', input: query }], stop_reason: 'end_turn' };
  malformed(() => read(anthropic, data), /holds itself/);
});

test('a value shared twice without a cycle is read', () => {
  const shared = { city: 'Paris' };
  const reply = read(openai, chat({ a: shared, b: shared }));
  assert.deepEqual(reply.calls[0].arguments, { a: { city: 'Paris' }, b: { city: 'Paris' } });
});
