// What the wire conformance cases cannot carry about rendering: convert's minted ids
// (specs/README.md §6.3) are the ones Python mints, and a refused item is never dropped.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFolder, compileSpec } from '../lib/loader.js';
import { read } from '../lib/interpreter.js';
import { convert, mintId, assistantTurn } from '../lib/render.js';

const specsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'specs');
const bundled = loadFolder(path.join(specsDir, 'wire'), specsDir);
const specs = Object.fromEntries(Object.entries(bundled.specs).map(([n, s]) => [n, compileSpec(s.data)]));
const GEMINI = { candidates: [{ content: { role: 'model', parts: [
  { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
  { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] } }] };

test('ids: mint gives each call without an id the id Python gives it', () => {
  const turn = convert(read(specs.gemini, GEMINI, false), specs.openai, { ids: 'mint' });
  assert.deepEqual(turn.tool_calls.map((c) => c.id), ['aefe4e95c', '553af602b']);
  assert.equal(mintId({ name: 'f', arguments: {}, raw_arguments: '{}' }, 0), mintId({ name: 'f', arguments: {}, raw_arguments: '{}' }, 0));
});

test('without ids a call without one is refused where results pair by id', () => {
  assert.throws(() => convert(read(specs.gemini, GEMINI, false), specs.openai), (e) => e.code === 'render_error');
});

test('ids may be a function of the call and its index', () => {
  const turn = convert(read(specs.gemini, GEMINI, false), specs.anthropic, { ids: (_, i) => `toolu_${i}` });
  assert.deepEqual(turn.content.map((b) => b.id), ['toolu_0', 'toolu_1']);
});

test('a reply renders the turn it read after the caller changes the response', () => {
  const response = { type: 'message', role: 'assistant', stop_reason: 'tool_use', content: [
    { type: 'thinking', thinking: 'Weather first.', signature: 'EqQBCkYIARgC' },
    { type: 'text', text: 'Checking.' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] };
  const reply = read(specs.anthropic, response);
  const before = structuredClone(assistantTurn(specs.anthropic, reply));
  response.content[0].signature = 'FORGED';
  response.content[1].text = 'Injected.';
  response.content[2].input.city = 'Elsewhere';
  assert.deepEqual(assistantTurn(specs.anthropic, reply), before);
  assert.equal(before.content[0].signature, 'EqQBCkYIARgC');
  assert.deepEqual(reply.calls[0].raw_arguments ?? { city: 'Paris' }, { city: 'Paris' });
});
