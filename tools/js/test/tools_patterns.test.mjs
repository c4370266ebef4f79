// A tool schema's `pattern` and `patternProperties` checked bounded (specs/README.md §8.1,
// §8.2): the pattern that hangs the platform RegExp is decided in time linear in the
// argument, a search out of steps flags the value `regex_budget`, and a pattern the engines
// do not run is `invalid_tools` when the tools are built, naming where it is.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Tools, readText } from '../index.js';
import { growth, GROWTH_BOUND, ROUNDS, ATTEMPTS } from './growth.mjs';

const request = (parameters) => ({ model: 'gpt-4.1', tools: [{ type: 'function', function: { name: 'f', parameters } }] });
const withPattern = (pattern) => new Tools('openai', request({ type: 'object', properties: { s: { type: 'string', pattern } } }));
const verdict = (tools, args) => tools.check({ name: 'f', arguments: args }).argumentsErrors.map((e) => [e.pointer, e.keyword]);
const BACKTRACKING = '^(\\w+\\s?)*\\1!$';
const OVERRUN = `${'ab'.repeat(200)}?`;

test('the pattern that hangs the platform RegExp is checked in time linear in the argument', () => {
  const tools = withPattern('^([A-Za-z0-9]+\\s?)*$');
  assert.deepEqual(verdict(tools, { s: `${'a'.repeat(33)}!` }), [['/s', 'pattern']]); // RegExp: seconds
  assert.deepEqual(verdict(tools, { s: 'hello world' }), []);
  let made = 0;
  const prepare = (n) => { // each run checks three arguments not seen before (no answer remembered)
    const runs = Array.from({ length: 1 + ROUNDS * ATTEMPTS }, () => [0, 1, 2].map(() => ({ name: 'f', arguments: { s: `${'a'.repeat(n)}${made++}!` } })));
    let run = 0;
    return () => { for (const call of runs[run++]) tools.check(call); };
  };
  const ratio = growth(prepare, 10_000); // process CPU time, not wall time: see growth.mjs
  assert.ok(ratio < GROWTH_BOUND, `4x the argument took ${ratio.toFixed(1)}x the CPU time (linear: 4)`);
});

test('a search that runs out of steps flags the value regex_budget, without a pattern error', () => {
  const tools = withPattern(BACKTRACKING);
  const checked = tools.check({ name: 'f', arguments: { s: OVERRUN } });
  assert.deepEqual(checked.argumentsErrors.map((e) => [e.pointer, e.keyword]), [['/s', 'regex_budget']]);
  assert.match(checked.argumentsErrors[0].message, /could not be checked against .*1,000,000 steps/);
  assert.equal(checked.argumentsInvalid, true);
  assert.deepEqual(verdict(tools, { s: 'ab ab!' }), [['/s', 'pattern']]); // decided within the budget
  assert.deepEqual(verdict(tools, { s: 'ab abab!' }), []);
});

test('patternProperties keys are searched bounded, an overrun flagging the property', () => {
  const linear = new Tools('openai', request({ type: 'object', patternProperties: { '^([a-z]+_?)*$': { type: 'integer' } } }));
  assert.deepEqual(verdict(linear, { [`${'a'.repeat(40)}!`]: 'x', ok_key: 'y' }), [['/ok_key', 'type']]);
  const budgeted = new Tools('openai', request({ type: 'object', patternProperties: { [BACKTRACKING]: { type: 'integer' } } }));
  assert.deepEqual(verdict(budgeted, { [OVERRUN]: 'x' }), [[`/${OVERRUN}`, 'regex_budget']]);
  // one budget per call: once the overrun spent it, the next key is not searched either
  assert.deepEqual(verdict(budgeted, { [OVERRUN]: 'x', 'a~b/c': 'y' }), [[`/${OVERRUN}`, 'regex_budget'], ['/a~0b~1c', 'regex_budget']]);
  assert.deepEqual(verdict(budgeted, { 'a~b/c': 'y' }), []); // a call of its own: searched, no match
  const nested = new Tools('openai', request({ type: 'object', properties: { o: { type: 'object', patternProperties: { [BACKTRACKING]: {} } } } }));
  assert.deepEqual(verdict(nested, { o: { [OVERRUN]: 1 } }), [[`/o/${OVERRUN}`, 'regex_budget']]);
});

test('the patterns additionalProperties consults run bounded', () => {
  const tools = new Tools('openai', request({ type: 'object', patternProperties: { '^([a-z]+_?)*$': { type: 'integer' } }, additionalProperties: false }));
  assert.deepEqual(verdict(tools, { [`${'a'.repeat(40)}!`]: 1, ok_key: 2 }), [['', 'additionalProperties']]); // RegExp: minutes
});

test('one call spends one budget: after an overrun, every later search of that call is regex_budget', () => {
  const tools = new Tools('openai', request({ type: 'object', properties: { s: { type: 'array', items: { type: 'string', pattern: BACKTRACKING } } } }));
  const strings = Array.from({ length: 16 }, (_, n) => `${String(n).padStart(2, '0')}${OVERRUN}`);
  assert.deepEqual(verdict(tools, { s: strings }), strings.map((_, n) => [`/s/${n}`, 'regex_budget']).sort());
  assert.deepEqual(verdict(tools, { s: [OVERRUN, 'cd cdcd!'] }), [['/s/0', 'regex_budget'], ['/s/1', 'regex_budget']]);
  assert.deepEqual(verdict(tools, { s: ['cd cdcd!'] }), []);
});

test('a pattern reached through $ref or items runs bounded too', () => {
  const tools = new Tools('openai', request({
    type: 'object',
    $defs: { word: { type: 'string', pattern: BACKTRACKING } },
    properties: { a: { $ref: '#/$defs/word' }, list: { type: 'array', items: { type: 'string', pattern: BACKTRACKING } } },
  }));
  assert.deepEqual(verdict(tools, { a: OVERRUN }), [['/a', 'regex_budget']]);
  assert.deepEqual(verdict(tools, { list: ['ab abab!', OVERRUN] }), [['/list/1', 'regex_budget']]);
});

test('the schema handed back and a const that looks like a schema are left as they are', () => {
  const parameters = { type: 'object', properties: { s: { type: 'string', pattern: '^a+$' }, c: { const: { pattern: '^b$' } } } };
  const tools = new Tools('openai', request(parameters));
  assert.deepEqual(tools.parameters('f'), parameters);
  assert.deepEqual(verdict(tools, { s: 'aa', c: { pattern: '^b$' } }), []);
  assert.deepEqual(verdict(tools, { s: 'aa', c: { pattern: '^b$', 'x-toolwire-regex-budget': true } }), [['/c', 'const']]);
});

test('a pattern the bounded engines do not run is invalid_tools when the tools are built, naming it', () => {
  const refused = (parameters) => {
    try { new Tools('openai', request(parameters)); } catch (error) { return [error.code, error.pointer, error.message]; } // eslint-disable-line no-new
    return null;
  };
  const [code, pointer, message] = refused({ type: 'object', properties: { s: { type: 'string', pattern: 'a{20000}' } } });
  assert.deepEqual([code, pointer], ['invalid_tools', '/properties/s/pattern']);
  assert.match(message, /cannot be run with a bound on its time/);
  assert.deepEqual(refused({ type: 'object', patternProperties: { '(?P<n>a)': {} } }).slice(0, 2), ['invalid_tools', '/patternProperties']);
  assert.match(refused({ type: 'object', properties: { s: { pattern: '[' } } })[2], /is not a regular expression/);
  assert.throws(() => readText('hermes', '<tool_call>{"name": "f", "arguments": {}}</tool_call>', { tools: { f: { type: 'object', properties: { s: { pattern: 'a{20000}' } } } } }),
    (error) => error.code === 'invalid_tools' && error.pointer === '/properties/s/pattern');
});

test('calls read from model text are checked bounded', () => {
  const tools = { f: { type: 'object', properties: { s: { type: 'string', pattern: BACKTRACKING } } } };
  const reply = readText('hermes', `<tool_call>{"name": "f", "arguments": {"s": "${OVERRUN}"}}</tool_call>`, { tools });
  assert.deepEqual(reply.calls[0].argumentsErrors.map((e) => [e.pointer, e.keyword]), [['/s', 'regex_budget']]);
});
