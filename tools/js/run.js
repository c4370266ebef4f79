#!/usr/bin/env node
// The conformance runner: every case under specs/conformance/, validated against the case
// schema, then run on this implementation. Every key of a case and of each test's `expect` is
// checked, or the case fails naming the key: nothing passes unchecked. Prints per-kind counts,
// then "N passed, N failed, N skipped (optional), N not implemented"; exits 1 when a case fails.
// `--json` prints the counts as one JSON object instead (tests/test_js_implementation.py).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { loadFolder, loadFile, compileSpec, sortProblems } from './lib/loader.js';
import { read, readIn, sniff, sniffFormat, fates, fromStructuredOutput, ToolwireError } from './lib/interpreter.js';
import { compileExpression } from './lib/expression.js';
import { textScanner, NotImplemented } from './lib/text.js';
import { compileTools, checkCalls, toolsFromSchemas } from './lib/tools.js';
import { runStream } from './lib/stream_cases.js';
import { roundTrip, assistantTurn, answer } from './lib/render.js';
import { normalized } from './lib/normalize.js';
import { loads } from './lib/json.js';
import { dumped } from './lib/reply_json.js';
import { liftTextCalls } from './lib/lift.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SPECS = path.resolve(here, '..', '..', 'specs');
// `--reply-json FILE` writes the Reply JSON (§7) of every wire test read, for a differential test.
const replyJsonAt = process.argv.indexOf('--reply-json');
const replyJson = [];
// `--suite DIR` runs the cases of another folder laid out like specs/conformance/ (the runner's own tests).
const suiteAt = process.argv.indexOf('--suite');
const SUITE = suiteAt === -1 ? path.join(SPECS, 'conformance') : path.resolve(process.argv[suiteAt + 1]);
const KNOWN = ['expression', 'interpreter', 'spec-validation', 'text', 'tools'];
const verbose = process.argv.includes('-v');
const asJson = process.argv.includes('--json');

const caseSchema = JSON.parse(fs.readFileSync(path.join(SPECS, 'schema', 'conformance-case.v1.schema.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(caseSchema);
const validatorFor = (kind) => ajv.getSchema(`${caseSchema.$id}#/definitions/${kind}`);

const bundled = loadFolder(path.join(SPECS, 'wire'), SPECS);
if (bundled.problems.length) {
  for (const p of bundled.problems) console.error(`${p.file}:${p.line}:${p.col}: ${p.pointer}: ${p.message} [${p.rule}]`);
  process.exit(1);
}
const specs = Object.fromEntries(Object.entries(bundled.specs).map(([name, s]) => [name, compileSpec(s.data)]));

// JSON equality: numbers by value (1 equals 1.0), booleans apart, key order free.
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  const ka = Object.keys(a); const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

function expectSame(got, want, what) {
  if (!same(got, want)) throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// Keys of an object the runner has no check for fail the case loudly.
function onlyKeys(object, allowed, what) {
  const extra = Object.keys(object).filter((k) => !allowed.includes(k));
  if (extra.length) throw new Error(`${what}: the runner does not check ${extra.join(', ')}`);
}

// A call as §4 compares it: to_dict() without arguments_error; provenance keys only where given.
const PROVENANCE = ['raw_arguments', 'item_index', 'provider_data'];
const CALL_KEYS = ['name', 'arguments', 'id', 'synthetic', 'arguments_undecodable', 'arguments_error_code', ...PROVENANCE];
function callsAsExpected(calls, want) {
  return calls.map((call, i) => {
    const given = (want && want[i]) || {};
    const out = {};
    for (const key of CALL_KEYS) {
      if (!(key in call)) continue;
      if (PROVENANCE.includes(key) && !(key in given)) continue;
      if (key === 'provider_data' && !Object.keys(call[key]).length && !(key in given)) continue;
      out[key] = call[key];
    }
    return out;
  });
}
// Records compared on the keys the case gives (§4: `skipped`, `unknown`, `refused`, `call_records`).
const projected = (records, want) => records.map((r, i) => Object.fromEntries(Object.keys((want && want[i]) || r).map((k) => [k, r[k] ?? null])));

// The reply keys of §4 and how each is compared.
const REPLY_CHECKS = {
  calls: (reply, want) => expectSame(callsAsExpected(reply.calls, want), want, 'calls'),
  server_calls: (reply, want) => expectSame(reply.server_calls, want, 'server_calls'),
  truncated: (reply, want) => expectSame(reply.truncated, want, 'truncated'),
  finish_reason: (reply, want) => expectSame(reply.finish_reason, want, 'finish_reason'),
  text: (reply, want) => expectSame(reply.text ?? null, want, 'text'),
  unknown_types: (reply, want) => expectSame(reply.unknown_types, want, 'unknown_types'),
  skipped: (reply, want) => expectSame(projected(reply.skipped, want), want, 'skipped'),
  unknown: (reply, want) => expectSame(projected(reply.unknown, want), want, 'unknown'),
  refused: (reply, want) => expectSame(projected(reply.refused, want), want, 'refused'),
  call_records: (reply, want) => expectSame(projected(reply.call_records, want), want, 'call_records'),
  fates: (reply, want) => expectSame(fates(reply), want, 'fates'),
  has_calls: (reply, want) => expectSame(fates(reply).some((fate) => fate !== 'dropped'), want, 'has_calls'),
  choice_count: (reply, want) => expectSame(reply.choice_count, want, 'choice_count'),
  text: (reply, want) => expectSame(reply.text ?? null, want, 'text'),
  turn: (reply, want) => expectSame(reply.turn ?? null, want, 'turn'),
};
// §4: the fields an expected error may give, compared exactly where given.
const ERROR_FIELDS = ['item_index', 'item_type', 'looks_like', 'format', 'error_message', 'error_type', 'error_code', 'provider_data'];
const ERROR_KEYS = ['code', ...ERROR_FIELDS, 'reply'];

function checkError(error, want, what = 'error') {
  if (!(error instanceof ToolwireError)) throw error;
  onlyKeys(want, ERROR_KEYS, `expect.${what}`);
  expectSame(error.code, want.code, `${what} code`);
  for (const field of ERROR_FIELDS) if (field in want) expectSame(error[field] ?? null, want[field], `${what} ${field}`);
  if ('reply' in want) {
    if (!error.reply) throw new Error(`${what} carries no partial reply`);
    onlyKeys(want.reply, Object.keys(REPLY_CHECKS), `expect.${what}.reply`);
    for (const [key, value] of Object.entries(want.reply)) REPLY_CHECKS[key](error.reply, value);
  }
}

const TEST_KEYS = ['description', 'response', 'strict', 'choice', 'structured_output', 'text_format', 'text_params', 'results', 'expect'];
const RENDER_KEYS = ['assistant_message', 'answer'];
const FIRST_LIST = ['calls', 'server_calls', 'truncated', 'finish_reason', 'unknown_types', 'skipped'];
// How a test reads: a wire case with every bundled spec at hand (readIn: sniffing, errors
// and shape hints, §1.11-1.12); an interpreter case with its one inline spec.
function checkReply(spec, test, all, reader = (data, strict, choice) => read(spec, data, strict, choice)) {
  onlyKeys(test, TEST_KEYS, 'test');
  const { expect } = test;
  if (test.structured_output) {
    onlyKeys(test.structured_output, ['tool_name'], 'test.structured_output');
    onlyKeys(expect, ['structured_call', 'error'], 'expect');
    let call;
    try { call = fromStructuredOutput(spec, test.response, test.structured_output.tool_name, test.choice ?? null); } catch (error) {
      if (!expect.error) throw error;
      checkError(error, expect.error); return;
    }
    if (expect.error) throw new Error(`expected error ${expect.error.code}, from_structured_output succeeded`);
    expectSame(callsAsExpected([call], [expect.structured_call])[0], expect.structured_call, 'structured_call');
    return;
  }
  onlyKeys(expect, [...Object.keys(REPLY_CHECKS), ...RENDER_KEYS, 'error', 'sniff'], 'expect');
  if (expect.error) {
    try { reader(test.response, test.strict ?? null, test.choice ?? null); } catch (error) { checkError(error, expect.error); return; }
    throw new Error(`expected error ${expect.error.code}, read succeeded`);
  }
  const reply = reader(test.response, test.strict ?? null, test.choice ?? null);
  const lifted = test.text_format !== undefined; // its turns are rendered from its wire items only
  if (replyJsonAt !== -1 && !all) {
    const response = normalized(spec, typeof test.response === 'string' ? loads(test.response) : test.response);
    replyJson.push({ file: currentFile, test: currentTest, ...dumped(spec, reply, response, test.choice === undefined && !lifted) });
  }
  if (all) for (const key of FIRST_LIST) if (!(key in expect)) throw new Error(`interpreter case lacks expect.${key}`);
  for (const [key, value] of Object.entries(expect)) if (key !== 'sniff' && !RENDER_KEYS.includes(key)) REPLY_CHECKS[key](reply, value);
  // §6.2-6.3: the reply rendered back, its assistant turn and its answer to the test's results
  if ('assistant_message' in expect) expectSame(assistantTurn(spec, reply), expect.assistant_message, 'assistant_message');
  if ('answer' in expect) {
    if (!test.results) throw new Error('expect.answer needs the test\'s results');
    const given = new Map(Object.entries(test.results).map(([index, result]) => [Number(index), result]));
    expectSame(answer(spec, reply, given), expect.answer, 'answer');
  }
  // §6.3: every reply of a format with a render part round-trips through its templates
  if (spec.data && spec.data.render && test.choice === undefined && !lifted) {
    const response = normalized(spec, typeof test.response === 'string' ? loads(test.response) : test.response);
    roundTrips += roundTrip(spec, response, reply, same);
  }
}
let roundTrips = 0;

const textSpecs = {};
const runners = {
  text(data) {
    const source = textSpecs[data.format] ||= fs.readFileSync(path.join(SPECS, 'text', `${data.format}.yaml`), 'utf8');
    for (const test of data.tests) {
      onlyKeys(test, ['description', 'text', 'params', 'tools', 'expect'], 'test');
      onlyKeys(test.expect, ['calls', 'clean_text', 'text', 'reasoning', 'skipped', 'truncated', 'fates', 'checked', 'error', 'refused'], 'expect');
      const options = test.tools ? { tools: test.tools, check: toolsFromSchemas(test.tools) } : {};
      const got = textScanner(source, test.params, options)(test.text);
      const { expect } = test;
      const what = (key) => `${test.description}: ${key}`;
      const CHECK = ['unknown_tool', 'arguments_invalid', 'arguments_errors'];
      const plain = got.calls.map((c) => Object.fromEntries(Object.entries(c).filter(([k]) => !CHECK.includes(k))));
      expectSame(plain, expect.calls, what('calls'));
      if ('error' in expect) { // §1b.3: a refused message raises unmapped_call with the partial reply
        if (!got.refused.length) throw new Error(`${what('error')}: nothing was refused`);
        expectSame('unmapped_call', expect.error.code, what('error'));
        if ('item_type' in expect.error) expectSame(got.refused[0].recipient, expect.error.item_type, what('error.item_type'));
      } else {
        if (got.refused.length) throw new Error(`${what('error')}: refused ${got.refused[0].recipient} unexpectedly`);
        expectSame(got.clean_text, expect.clean_text, what('clean_text'));
      }
      for (const key of ['text', 'reasoning', 'truncated']) if (key in expect) expectSame(got[key], expect[key], what(key));
      if ('skipped' in expect) expectSame(got.skipped.map(({ start, end, code }) => ({ start, end, code })), expect.skipped, what('skipped'));
      if ('refused' in expect) expectSame(got.refused.map(({ start, end, recipient }) => ({ start, end, recipient })), expect.refused, what('refused'));
      if ('fates' in expect) expectSame(fates({ calls: got.calls, truncated: false }), expect.fates, what('fates'));
      if ('checked' in expect) expectSame(got.calls.map((c) => ({ unknown_tool: !!c.unknown_tool, arguments_invalid: !!c.arguments_invalid })), expect.checked, what('checked'));
    }
  },
  wire(data) {
    for (const [i, test] of data.tests.entries()) {
      currentTest = i;
      let format = data.format;
      if ('sniff' in test.expect) expectSame(sniffFormat(specs, test.response), test.expect.sniff, 'sniff');
      if (format === null) format = sniff(specs, test.response);
      const scanText = test.text_format === undefined ? null
        : textScanner(textSpecs[test.text_format] ||= fs.readFileSync(path.join(SPECS, 'text', `${test.text_format}.yaml`), 'utf8'), test.text_params || {});
      const reader = (response, strict, choice) => {
        const reply = readIn(specs, data.format, response, strict, choice);
        // §1.10: a lifted call gets a minted id where the format pairs results by id
        const ids = specs[reply.format]?.data?.render?.requires_id ? 'mint' : null;
        return scanText ? liftTextCalls(reply, scanText, test.text_format, ids) : reply;
      };
      checkReply(specs[format] || null, test, false, reader);
    }
  },
  interpreter(data) {
    const text = JSON.stringify(data.spec);
    const { spec, problems } = loadFile('demo.yaml', { 'demo.yaml': text }, {}, SPECS);
    if (!spec) throw new Error(`inline spec does not load: ${JSON.stringify(problems)}`);
    const compiled = compileSpec(spec.data);
    for (const test of data.tests) checkReply(compiled, test, true);
  },
  expression(data) {
    for (const test of data.tests) {
      onlyKeys(test, ['description', 'expression', 'data', 'expect'], 'test');
      onlyKeys(test.expect, ['value', 'error'], 'expect');
      const expression = compileExpression(test.expression);
      if ('error' in test.expect) {
        let failed = false;
        try { expression.evaluate(test.data); } catch { failed = true; }
        if (!failed) throw new Error(`${test.expression}: expected a run-time error`);
      } else expectSame(expression.evaluate(test.data), test.expect.value, test.expression);
    }
  },
  'spec-validation'(data) {
    onlyKeys(data.expect, ['problems'], 'expect');
    const files = { [data.file_name]: data.spec_text, ...(data.other_files || {}) };
    const { problems } = loadFile(data.file_name, files, bundled.specs, SPECS);
    const got = sortProblems(problems).map((p) => {
      const out = { rule: p.rule, line: p.line, col: p.col, pointer: p.pointer };
      if (p.file !== data.file_name) out.file = p.file;
      return out;
    });
    expectSame(got, data.expect.problems, 'problems');
  },
  tools(data) {
    const spec = specs[data.format];
    for (const test of data.tests) {
      onlyKeys(test, ['description', 'tools', 'response', 'expect'], 'test');
      const { expect } = test;
      onlyKeys(expect, ['calls', 'fates', 'names', 'parameters', 'error'], 'expect');
      let compiled;
      try { compiled = compileTools(spec, test.tools, Object.entries(specs)); } catch (error) {
        if (!expect.error || !(error instanceof ToolwireError)) throw error;
        onlyKeys(expect.error, ['code', 'tool', 'index', 'pointer'], 'expect.error');
        for (const [key, value] of Object.entries(expect.error)) expectSame(key === 'code' ? error.code : error[key], value, `error ${key}`);
        continue;
      }
      if (expect.error) throw new Error(`expected error ${expect.error.code}, the tools compiled`);
      if ('names' in expect) expectSame(compiled.names, expect.names, 'names');
      for (const [name, schema] of Object.entries(expect.parameters || {})) expectSame(compiled.parameters[name] ?? null, schema, `parameters(${name})`);
      const reply = read(spec, test.response);
      reply.calls = checkCalls(compiled, reply.calls);
      if ('calls' in expect) {
        const got = reply.calls.map((c) => ({
          name: c.name, id: c.id, unknown_tool: c.unknown_tool, arguments_invalid: c.arguments_invalid,
          arguments_errors: c.arguments_errors.map(({ pointer, keyword }) => ({ pointer, keyword })),
        }));
        expectSame(got, expect.calls, 'calls');
      }
      if ('fates' in expect) expectSame(fates(reply), expect.fates, 'fates');
    }
  },
  stream(data) {
    for (const test of data.tests) runStream(specs, data.format, test, { same, expectSame, onlyKeys, callsAsExpected });
  },
};

const TOP_KEYS = {
  wire: ['description', 'source', 'source_ref', 'format', 'tests', 'optional'],
  interpreter: ['description', 'source', 'source_ref', 'spec', 'tests', 'optional'],
  'spec-validation': ['description', 'source', 'source_ref', 'file_name', 'spec_text', 'other_files', 'expect', 'optional'],
  text: ['description', 'source', 'source_ref', 'format', 'tests', 'optional'],
  expression: ['description', 'source', 'source_ref', 'tests', 'optional'],
  tools: ['description', 'source', 'source_ref', 'format', 'tests', 'optional'],
  stream: ['description', 'source', 'source_ref', 'format', 'kind', 'tests', 'optional'],
};

const counts = {};
const totals = { passed: 0, failed: 0, skipped: 0, not_implemented: 0 };
const notImplemented = new Set();
const failures = [];
const files = fs.readdirSync(SUITE, { recursive: true }).filter((f) => f.endsWith('.json')).sort();
let currentFile = null; let currentTest = null;
for (const file of files) {
  currentFile = file;
  const top = file.split(path.sep)[0];
  const data = JSON.parse(fs.readFileSync(path.join(SUITE, file), 'utf8'));
  const kind = KNOWN.includes(top) ? top : (data.kind === 'stream' ? 'stream' : 'wire');
  const count = (counts[kind] ||= { passed: 0, failed: 0, skipped: 0, not_implemented: 0 });
  const bump = (what) => { count[what]++; totals[what]++; };
  const fail = (message) => { bump('failed'); failures.push(`${file}: ${message}`); if (!asJson) console.log(`FAIL ${file}: ${message.slice(0, 400)}`); };
  const validate = validatorFor(kind);
  if (!validate) { fail(`no case schema for kind ${kind}`); continue; }
  if (!validate(data)) { fail(`not a valid ${kind} case: ${validate.errors.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`).join('; ')}`); continue; }
  if (data.optional) { bump('skipped'); if (verbose) console.log(`SKIP ${file} (optional: ${data.optional})`); continue; }
  if (!runners[kind]) { bump('not_implemented'); notImplemented.add(kind); continue; }
  try {
    onlyKeys(data, TOP_KEYS[kind], 'case');
    runners[kind](data); bump('passed');
  } catch (error) {
    if (error instanceof NotImplemented) { bump('not_implemented'); notImplemented.add(`${kind}: ${error.message}`); continue; }
    fail(error.message);
  }
}
if (replyJsonAt !== -1) fs.writeFileSync(process.argv[replyJsonAt + 1], JSON.stringify(replyJson));
if (asJson) console.log(JSON.stringify({ kinds: counts, totals, not_implemented: [...notImplemented].sort(), failures, render_round_trips: roundTrips }));
else {
  for (const [kind, c] of Object.entries(counts).sort()) {
    console.log(`${kind.padEnd(16)} ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped${c.not_implemented ? `, ${c.not_implemented} not implemented in JS` : ''}`);
  }
  console.log(`render round trips (§6.3, within the wire cases): ${roundTrips}`);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (optional), ${totals.not_implemented} not implemented`);
  if (totals.not_implemented) console.log(`not implemented in JS: ${[...notImplemented].sort().join(', ')}`);
}
process.exit(totals.failed ? 1 : 0);
