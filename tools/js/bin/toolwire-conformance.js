#!/usr/bin/env node
// The conformance protocol (specs/README.md §10) for this package: one JSON request per line on
// stdin, one JSON answer per line on stdout, until stdin closes. Run the suite through it with
// `toolwire conformance --implementation "npx toolwire-conformance"` (Python's toolwire CLI).
// Every operation goes through the package's public API, but for `expression` and `load`,
// which are the spec language's own pieces (lib/expression.js, lib/loader.js).
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  read, sniffFormat, fromStructuredOutput, extractFromText, readText, Tools, Accumulator, Registry, ToolwireError,
} from '../index.js';
import { compileExpression } from '../lib/expression.js';
import { loadFile, loadFolder, sortProblems } from '../lib/loader.js';

const SPECS = fileURLToPath(new URL('../specs/', import.meta.url));

// The facts each code carries (specs/README.md §3, §9.8, §10): every one written, null when unset.
const RECORD = ['format', 'item_index', 'item_type', 'reason', 'location', 'reply'];
const FACTS = {
  unknown_format: ['format'],
  unmapped_call: RECORD,
  unknown_item_type: RECORD,
  malformed_response: ['format', 'item_index', 'field', 'reason', 'looks_like'],
  provider_error: ['format', 'error_message', 'error_type', 'error_code', 'provider_data'],
  not_declared: ['format', 'part'],
  invalid_tools: ['format', 'tool', 'index', 'pointer'],
  render_error: ['format', 'reason'],
  incomplete_stream: ['format', 'open_slots', 'last_event_type', 'events'],
  stream_error: ['format', 'error_code', 'error_message', 'event_index'],
  malformed_stream: ['format', 'reason', 'event_index', 'rule', 'looks_like', 'finished_reply'],
  unsupported_stream: ['format', 'reason', 'event_index'],
};

const errorJson = (error) => {
  const out = { code: error.code, message: error.message };
  const facts = FACTS[error.code];
  const keys = facts || Object.keys(error).filter((k) => k !== 'code' && k !== 'message');
  for (const key of keys) {
    const value = error[key] ?? null;
    // a wire error's partial reply is the implementation's reply data; a text error's a TextReply
    if (key === 'reply') out.reply = !value ? null : typeof value.toJSON === 'function' ? value.toJSON() : Registry.replyJson(value);
    else out[key] = value;
  }
  if (error.code === 'malformed_stream') out.finished_reply = error.finished_reply === true;
  return out;
};

const inline = new Map(); // an inline spec's registry, by its JSON text
function registryOf(spec) {
  const key = JSON.stringify(spec);
  if (!inline.has(key)) inline.set(key, Registry.bundled().withSpecs({ wire: { demo: spec } }));
  return inline.get(key);
}

let bundledBases = null; // the bundled wire specs as the loader resolves them, with their places
function load({ file_name: name, spec_text: text, other_files: others }) {
  bundledBases ||= loadFolder(`${SPECS}wire`, SPECS.replace(/\/$/, '')).specs;
  const { problems } = loadFile(name, { ...others, [name]: text }, bundledBases, SPECS.replace(/\/$/, ''));
  return sortProblems(problems).map(({ file, line, col, pointer, rule, message }) => ({ file, line, col, pointer, rule, message }));
}

function outcome(produce) {
  try { return { result: produce().toJSON() }; } catch (error) {
    if (!(error instanceof ToolwireError)) throw error;
    return { error: errorJson(error) };
  }
}

function stream({ format, events, sse, splits }) {
  const acc = new Accumulator(format);
  const ready = []; let failure = null;
  try {
    if (events !== null) for (const event of events) ready.push(...acc.feed(event));
    else {
      const bytes = new TextEncoder().encode(sse);
      const cuts = [0, ...splits, bytes.length];
      for (let i = 0; i + 1 < cuts.length; i++) ready.push(...acc.feedBytes(bytes.subarray(cuts[i], cuts[i + 1])));
      ready.push(...acc.close());
    }
  } catch (error) {
    if (!(error instanceof ToolwireError)) throw error;
    failure = errorJson(error);
  }
  return {
    format: acc.format, ready: ready.map((u) => u.toJSON()), complete: acc.complete, error: failure,
    reply: outcome(() => acc.reply()), incomplete_reply: outcome(() => acc.reply({ allowIncomplete: true })),
  };
}

const OPERATIONS = {
  read: (r) => (r.spec ? registryOf(r.spec) : Registry.bundled())
    .read(r.spec ? 'demo' : r.format, r.response, { strict: r.strict, choice: r.choice, tools: r.tools, textFormat: r.text_format, textParams: r.text_params }).toJSON(),
  sniff: (r) => sniffFormat(r.response),
  structured_output: (r) => (r.spec ? registryOf(r.spec).fromStructuredOutput('demo', r.response, r.tool_name, { choice: r.choice })
    : fromStructuredOutput(r.format, r.response, r.tool_name, { choice: r.choice })).toJSON(),
  tools: (r) => {
    const tools = new Tools(r.format, r.tools);
    return { names: [...tools.names], parameters: Object.fromEntries(tools.names.map((n) => [n, tools.parameters(n)])) };
  },
  text: (r) => {
    const options = { params: r.params, tools: r.tools };
    const reply = readText(r.format, r.text, options); // a refused message throws, with the partial TextReply
    return { clean_text: extractFromText(r.format, r.text, options).cleanText, ...reply.toJSON() };
  },
  expression: (r) => {
    try { return compileExpression(r.expression).evaluate(r.data); } catch (error) {
      throw new ToolwireError('evaluation_error', error.message);
    }
  },
  load,
  stream,
  render: (r) => {
    const reply = (r.spec ? registryOf(r.spec) : Registry.bundled())
      .read(r.spec ? 'demo' : r.format, r.response, { strict: r.strict, choice: r.choice, textFormat: r.text_format, textParams: r.text_params });
    const registry = r.spec ? registryOf(r.spec) : null;
    const results = r.results === null ? null : new Map(Object.entries(r.results).map(([index, result]) => [Number(index), result]));
    return { assistant_message: reply.assistantMessage({ registry }), answer: results === null ? null : reply.answer(results, { registry }) };
  },
};

export function answer(request) {
  const operation = OPERATIONS[request.op];
  if (!operation) return { id: request.id, unsupported: `no operation ${request.op}` };
  try {
    const result = operation(request);
    return { id: request.id, result: result === undefined ? null : result };
  } catch (error) {
    if (error instanceof ToolwireError) return { id: request.id, error: errorJson(error) };
    return { id: request.id, error: { code: 'implementation_error', message: String(error && error.stack || error) } };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let request;
  try { request = JSON.parse(line); } catch { process.stdout.write(`${JSON.stringify({ id: '', error: { code: 'bad_request', message: 'not JSON' } })}\n`); continue; }
  process.stdout.write(`${JSON.stringify(answer(request))}\n`);
}
