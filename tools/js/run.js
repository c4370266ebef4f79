#!/usr/bin/env node
// The conformance runner: every case under specs/conformance/, validated against the case
// schema, then run on this implementation. Prints per-kind counts and
// "N passed, N failed, N skipped"; exits 1 when a case fails.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { loadFolder, loadFile, compileSpec, sortProblems } from './lib/loader.js';
import { read, sniff, ToolwireError } from './lib/interpreter.js';
import { compileExpression } from './lib/expression.js';
import { textScanner, NotImplemented } from './lib/text.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SPECS = path.resolve(here, '..', '..', 'specs');
const SUITE = path.join(SPECS, 'conformance');
const KNOWN = ['expression', 'interpreter', 'spec-validation', 'text', 'tools'];
const verbose = process.argv.includes('-v');

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

function checkReply(spec, test, all) {
  const { expect } = test;
  if (expect.error) {
    try { read(spec, test.response, test.strict ?? null); } catch (error) {
      if (!(error instanceof ToolwireError)) throw error;
      expectSame(error.code, expect.error.code, 'error code');
      for (const field of ['item_index', 'item_type']) if (field in expect.error) expectSame(error[field] ?? null, expect.error[field], field);
      return;
    }
    throw new Error(`expected error ${expect.error.code}, read succeeded`);
  }
  const reply = read(spec, test.response, test.strict ?? null);
  // §4: raw_arguments, item_index and provider_data are compared where the case gives them
  reply.calls.forEach((call, i) => {
    for (const key of ['raw_arguments', 'item_index', 'provider_data']) {
      if (!(expect.calls && expect.calls[i] && key in expect.calls[i])) delete call[key];
    }
  });
  for (const key of ['calls', 'server_calls', 'truncated', 'finish_reason', 'unknown_types', 'skipped', 'fates']) {
    if (key in expect) expectSame(reply[key], expect[key], key);
    else if (all && key !== 'fates') throw new Error(`interpreter case lacks expect.${key}`);
  }
}

const textSpecs = {};
const runners = {
  text(data) {
    const source = textSpecs[data.format] ||= fs.readFileSync(path.join(SPECS, 'text', `${data.format}.yaml`), 'utf8');
    for (const test of data.tests) {
      const got = textScanner(source, test.params)(test.text);
      expectSame(got.calls, test.expect.calls, `${test.description}: calls`);
      expectSame(got.clean_text, test.expect.clean_text, `${test.description}: clean_text`);
    }
  },
  wire(data) {
    for (const test of data.tests) {
      let format = data.format;
      if ('sniff' in test.expect) expectSame(sniff(specs, test.response), test.expect.sniff, 'sniff');
      if (format === null) format = sniff(specs, test.response);
      if (!specs[format]) throw new Error(`no spec ${format}`);
      checkReply(specs[format], test, false);
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
      const expression = compileExpression(test.expression);
      if ('error' in test.expect) {
        let failed = false;
        try { expression.evaluate(test.data); } catch { failed = true; }
        if (!failed) throw new Error(`${test.expression}: expected a run-time error`);
      } else expectSame(expression.evaluate(test.data), test.expect.value, test.expression);
    }
  },
  'spec-validation'(data) {
    const files = { [data.file_name]: data.spec_text, ...(data.other_files || {}) };
    const { problems } = loadFile(data.file_name, files, bundled.specs, SPECS);
    const got = sortProblems(problems).map((p) => {
      const out = { rule: p.rule, line: p.line, col: p.col, pointer: p.pointer };
      if (p.file !== data.file_name) out.file = p.file;
      return out;
    });
    expectSame(got, data.expect.problems, 'problems');
  },
};

const counts = {};
const totals = { passed: 0, failed: 0, skipped: 0, missing: 0 };
const notImplemented = new Set();
const files = fs.readdirSync(SUITE, { recursive: true }).filter((f) => f.endsWith('.json')).sort();
for (const file of files) {
  const top = file.split(path.sep)[0];
  const wire = fs.existsSync(path.join(SPECS, 'wire', `${top}.yaml`));
  const kind = KNOWN.includes(top) ? top : (wire && path.basename(file).startsWith('stream_') ? 'stream' : (wire ? 'wire' : top));
  const count = (counts[kind] ||= { passed: 0, failed: 0, skipped: 0, missing: 0 });
  const bump = (what) => { count[what]++; totals[what]++; };
  const data = JSON.parse(fs.readFileSync(path.join(SUITE, file), 'utf8'));
  const validate = validatorFor(kind);
  if (validate && !validate(data)) {
    bump('failed'); console.log(`FAIL ${file}: not a valid ${kind} case: ${ajv.errorsText(validate.errors)}`); continue;
  }
  if (data.optional) { bump('skipped'); if (verbose) console.log(`SKIP ${file} (optional: ${data.optional})`); continue; }
  if (!runners[kind]) { bump('missing'); notImplemented.add(kind); continue; }
  // Issue 9's values part (choices, structured_output, per-call and refused/unknown records,
  // the partial reply of a refusal) is not in the JS implementation yet: counted, never hidden.
  const newer = JSON.stringify(data.tests || []);
  if ((kind === 'wire' || kind === 'interpreter') && /"(choice|structured_output|unknown|refused|call_records|choice_count|reply|structured_call)":/.test(newer)) {
    bump('missing'); notImplemented.add(`${kind} records/choices/structured_output`); continue;
  }
  try { runners[kind](data); bump('passed'); } catch (error) {
    if (error instanceof NotImplemented) { bump('missing'); notImplemented.add(`${kind}: ${error.message}`); continue; }
    bump('failed'); console.log(`FAIL ${file}: ${error.message.slice(0, 400)}`);
  }
}
for (const [kind, c] of Object.entries(counts).sort()) {
  console.log(`${kind.padEnd(16)} ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped${c.missing ? `, ${c.missing} not implemented in JS` : ''}`);
}
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (totals.missing) console.log(`${totals.missing} not implemented in JS (${[...notImplemented].sort().join(', ')})`);
process.exit(totals.failed ? 1 : 0);
