// Tool calls inside model text (specs/README.md §1b): a text spec read with the strict YAML
// reader, checked against the keys this implementation knows, compiled into a scanner.
import Ajv from 'ajv';
import { readYaml } from './yaml.js';
import { isObject } from './json.js';
import { scan } from './text/scan.js';
import { jsonGrammar } from './text/json.js';
import { headGrammar } from './text/head.js';
import { xmlGrammar } from './text/xml.js';
import { pythonicGrammar } from './text/pythonic.js';
import { callObjectGrammar } from './text/callobject.js';
import { elementGrammar } from './text/elements.js';
import { messageScanner } from './text/messages.js';
import { metaSchema } from './meta_schemas.js';
import { checkCalls } from './tools.js';

const GRAMMARS = { json: jsonGrammar, 'head-json': headGrammar, 'xml-parameters': xmlGrammar, pythonic: pythonicGrammar, 'call-object': callObjectGrammar, 'xml-elements': elementGrammar };

// A key this implementation does not know is "not implemented", never silently ignored.
export class NotImplemented extends Error {}
const KNOWN = {
  spec: ['kind', 'spec_version', 'format', 'title', 'doc_ref', 'description', 'models', 'aliases', 'params', 'section', 'block', 'payload', 'reasoning', 'messages'],
  block: ['open', 'close', 'text_start', 'bare'],
  reasoning: ['open', 'close', 'open_in_prompt', 'calls', 'ends_at'],
  messages: ['start', 'channel', 'message', 'ends', 'recipient', 'calls_prefix', 'reasoning_channels', 'answer_channels', 'refuse'],
  json: ['grammar', 'shape', 'separator', 'when', 'name', 'arguments', 'id', 'arguments_keys', 'call_keys', 'single_key'],
  'head-json': ['grammar', 'head_end', 'arguments_start', 'name_prefix', 'index_suffix', 'id_marker', 'id', 'arguments_prefix', 'arguments_suffix'],
  'xml-parameters': ['grammar', 'function', 'name_end', 'parameter', 'value_trim', 'values', 'quoted_names', 'string_attribute',
    'string_value', 'function_name_attribute', 'parameter_name_attribute', 'types'],
  pythonic: ['grammar', 'layout', 'constants'],
  'call-object': ['grammar', 'call_prefix', 'string_delimiter', 'strings'],
  'xml-elements': ['grammar', 'function', 'element'],
};
let validator = null; // the text meta-schema, compiled on first use
function schemaErrors(data) {
  if (!validator) {
    const schema = metaSchema('text-spec.v1.schema.json', decodeURIComponent(new URL('../../../specs/', import.meta.url).pathname));
    validator = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
  }
  return validator(data) ? [] : validator.errors.map((e) => `${e.instancePath || '/'} ${e.message}`);
}
const unknownKeys = (object, known) => Object.keys(object || {}).filter((k) => !known.includes(k) && !k.startsWith('x-'));
function unknown(data) {
  return [...unknownKeys(data, KNOWN.spec), ...unknownKeys(data.block, KNOWN.block), ...unknownKeys(data.messages, KNOWN.messages),
    ...(data.reasoning || []).flatMap((r) => unknownKeys(r, KNOWN.reasoning)),
    ...(data.payload || []).flatMap((p) => (KNOWN[p.grammar] && p.grammar !== 'spec' ? unknownKeys(p, KNOWN[p.grammar]) : [`grammar ${p.grammar}`]))];
}

// A scanner for one text spec (its YAML text, or its data) with the caller's parameters;
// options.tools (a mapping from tool name to its parameters schema, or an object with
// parameters(name)) types xml values (§1b.4), and with options.check (compiled tools,
// lib/tools.js) every call is checked (§1b.12, §8.2).
// It returns { clean_text, calls, text, reasoning, skipped, truncated, refused }.
export function textScanner(specText, params = {}, options = {}) {
  const { data, problems } = typeof specText === 'string' ? readYaml(specText, 'text.yaml') : { data: specText, problems: [] };
  if (problems.length) throw new Error(`text spec does not load: ${problems[0].message}`);
  const errors = schemaErrors(data);
  if (errors.length) throw new Error(`text spec ${data?.format} breaks the meta-schema: ${errors.join('; ')}`);
  const extra = unknown(data);
  if (extra.length) throw new NotImplemented(`text spec keys ${extra.join(', ')}`);
  const values = Object.fromEntries(Object.entries(data.params || {}).map(([k, v]) => [k, v.default]));
  for (const [name, value] of Object.entries(params)) {
    const declared = data.params && Object.hasOwn(data.params, name) ? data.params[name] : undefined;
    if (!declared) throw new Error(`${data.format} has no parameter ${name}`);
    if (declared.pattern && !new RegExp(declared.pattern, 'u').test(value)) throw new Error(`parameter ${name} breaks its pattern`);
    values[name] = value;
  }
  // a value may be empty only where its pattern matches the empty string (§1b.5)
  for (const [name, value] of Object.entries(values)) {
    const pattern = data.params[name].pattern;
    if (value === '' && !(pattern && new RegExp(pattern, 'u').test(''))) throw new Error(`parameter ${name} must not be empty`);
  }
  const marker = (v) => {
    const out = v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n) => values[n]);
    if (v && !out) throw new Error(`a marker of ${data.format} is empty with these parameters`);
    return out;
  };
  const fill = (v) => (typeof v === 'string' ? marker(v)
    : Array.isArray(v) ? v.map(fill) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)])) : v);
  const checked = (result) => (options.check ? { ...result, calls: checkCalls(options.check, result.calls) } : result);
  if (data.messages) {
    const messages = messageScanner({ ...fill(data.messages), refuse: data.messages.refuse || [] }); // reasons are prose
    return (text) => checked(messages(text));
  }
  const block = fill(data.block);
  // json payloads: separators are markers, the selectors expressions
  const payloads = data.payload.map((p) => GRAMMARS[p.grammar](p.grammar === 'json' ? { ...p, ...(p.separator !== undefined ? { separator: fill(p.separator) } : {}) } : fill(p), options));
  const xml = data.payload.find((p) => p.grammar === 'xml-parameters' && p.function);
  const bare = block.bare && xml ? { open: fill(xml.function.open), close: fill(xml.function.close), grammar: GRAMMARS['xml-parameters'](fill(xml), options) } : null;
  const opens = block.open.map((o) => (isObject(o) ? o.open : o));
  const closes = Object.fromEntries(block.open.filter(isObject).map((o) => [o.open, o.close]));
  const compiled = {
    opens, close: block.close ?? null, closes, textStart: !!block.text_start, section: data.section ? fill(data.section) : null,
    payloads, bare, reasoning: fill(data.reasoning || []),
    // a block at the text's start is read by the json and pythonic alternatives only
    startPayloads: payloads.filter((_, i) => ['json', 'pythonic'].includes(data.payload[i].grammar)),
  };
  return (text) => checked(scan(text, compiled));
}
