// A format name the API does not know names what was probably meant, as Python's API and the CLI do.
import test from 'node:test';
import assert from 'node:assert/strict';
import { read, readText } from '../index.js';

const fails = (run, pattern) => assert.throws(run, (e) => e.code === 'unknown_format' && pattern.test(e.message));

test('a misspelt wire format suggests the near name', () => {
  for (const [name, meant] of [['OpenAI', 'openai'], ['opnai', 'openai'], ['antropic', 'anthropic'], ['GEMINI', 'gemini']]) {
    fails(() => read(name, {}), new RegExp(`did you mean '${meant}'\\?`));
  }
});

test('a format of the other kind says how to read it', () => {
  fails(() => read('Hermes', {}), /'hermes' is a text format.*readText\('hermes'/);
  fails(() => readText('anthropic', 'x'), /'anthropic' is a wire format.*read\('anthropic'/);
});

test('a misspelt text format suggests the near name; a name near nothing gets no guess', () => {
  fails(() => readText('hermse', 'x'), /unknown text format 'hermse'; did you mean 'hermes'/);
  assert.throws(() => read('zzz', {}), (e) => !/did you mean/.test(e.message) && /known formats: anthropic/.test(e.message));
});
