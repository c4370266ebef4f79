// The request's tool list and calls checked against it: specs/README.md §8.
// compileTools(spec, tools, others) reads the list once (translation §8.4, strict mode §8.3, the
// draft's meta-schema); checkCalls(compiled, calls) marks unknown_tool / arguments_invalid.
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { compileExpression, holds } from './expression.js';
import { loads, isObject, put } from './json.js';
import { ToolwireError } from './interpreter.js';
import { checkReferences, FORMATS, withProtoProperty } from './tools_schema.js';
import { reportedErrors } from './tools_errors.js';
import { regExpEngine, addBudgetKeyword, checkPatterns, withBudgetChecks, settle } from './tools_patterns.js';
import { withOneBudget } from './regex/index.js';

// The formats of §8.2 are asserted, any other is an annotation; nothing is ever retrieved
// (ajv loads no schema it is not given, and checkReferences refuses a $ref it cannot resolve);
// every pattern runs bounded, a search out of steps being `regex_budget` (tools_patterns.js).
const withFormats = (ajv) => {
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return addBudgetKeyword(ajv);
};
// ownProperties: a member is one the arguments hold, never one inherited (`constructor`, `toString`).
const OPTIONS = { allErrors: true, strict: false, validateFormats: true, logger: false, ownProperties: true, code: { regExp: regExpEngine } };
const DRAFTS = {
  draft7: { uri: 'http://json-schema.org/draft-07/schema', make: () => withFormats(new Ajv(OPTIONS)) },
  'draft2020-12': { uri: 'https://json-schema.org/draft/2020-12/schema', make: () => withFormats(new Ajv2020(OPTIONS)) },
};
const validators = {};
const validatorOf = (dialect) => (validators[dialect] ||= DRAFTS[dialect].make());

// A `$schema` the validator knows wins over the definition's dialect (§8.1).
function dialectOf(schema, dialect) {
  if (isObject(schema) && typeof schema.$schema === 'string') {
    const uri = schema.$schema.replace(/#$/, '');
    for (const [name, d] of Object.entries(DRAFTS)) if (d.uri === uri) return name;
  }
  return dialect || 'draft2020-12';
}

const invalid = (format, message, fields = {}) => new ToolwireError('invalid_tools', message, { format, tool: null, index: null, pointer: null, ...fields });
const escape = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

// §8.4: translate a provider schema by its table; errors carry the pointer inside the schema.
function translate(schema, table, pointer = '') {
  if (!isObject(schema)) throw Object.assign(new Error('a schema must be an object'), { pointer });
  const out = {};
  let nullable = false;
  for (const [key, value] of Object.entries(schema)) {
    if (value === null) continue; // unset (proto3 JSON, an SDK's dump): absent, §8.4
    const at = `${pointer}/${escape(key)}`;
    const rule = Object.hasOwn(table.keywords, key) ? table.keywords[key] : undefined;
    const fail = (message) => { throw Object.assign(new Error(message), { pointer: at }); };
    if (rule === undefined) fail(`keyword ${key} is outside the schema language`);
    if (rule === 'keep') put(out, key, value);
    else if (rule === 'type') {
      const names = Object.entries(table.type_names);
      const found = typeof value === 'string' && names.find(([n]) => (table.type_names_any_case ? n.toLowerCase() === value.toLowerCase() : n === value));
      if (!found) fail(`type ${JSON.stringify(value)} is not a type name of the schema language`);
      out.type = found[1];
    } else if (rule === 'nullable') {
      if (typeof value !== 'boolean') fail('nullable must be a boolean');
      nullable = value;
    } else if (rule === 'schema') put(out, key, typeof value === 'boolean' ? value : translate(value, table, at));
    else if (rule === 'schema_list') {
      if (!Array.isArray(value)) fail(`${key} must be a list`);
      put(out, key, value.map((s, i) => translate(s, table, `${at}/${i}`)));
    } else if (rule === 'schema_map') {
      if (!isObject(value)) fail(`${key} must be an object`);
      put(out, key, Object.fromEntries(Object.entries(value).map(([k, s]) => [k, translate(s, table, `${at}/${escape(k)}`)])));
    } // 'drop': nothing
  }
  if (nullable) {
    if (typeof out.type === 'string' && out.type !== 'null') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (Array.isArray(out.anyOf) && !Object.hasOwn(out, 'type')) out.anyOf = [...out.anyOf, { type: 'null' }];
  }
  return out;
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SUBSCHEMA_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'not', 'if', 'then', 'else', 'contains', 'additionalItems'];

// §8.3: every object schema closed and requiring all its properties (a copy is returned).
function strictened(schema, pointer = '') {
  if (!isObject(schema)) return schema;
  const out = { ...schema };
  const type = out.type;
  if (Object.hasOwn(out, 'properties') || type === 'object' || (Array.isArray(type) && type.includes('object'))) {
    const fail = (key, message) => { throw Object.assign(new Error(message), { pointer: `${pointer}/${key}` }); };
    if (!Object.hasOwn(out, 'additionalProperties')) out.additionalProperties = false;
    else if (out.additionalProperties !== false) fail('additionalProperties', 'strict mode needs additionalProperties false');
    const keys = Object.keys(isObject(out.properties) ? out.properties : {});
    if (!Object.hasOwn(out, 'required')) out.required = keys;
    else if (!Array.isArray(out.required) || keys.some((k) => !out.required.includes(k))) fail('required', 'strict mode needs every property required');
  }
  for (const key of SUBSCHEMA_MAPS) {
    if (isObject(out[key])) out[key] = Object.fromEntries(Object.entries(out[key]).map(([k, s]) => [k, strictened(s, `${pointer}/${key}/${escape(k)}`)]));
  }
  for (const key of [...SUBSCHEMA_LISTS, 'items']) {
    if (Array.isArray(out[key])) out[key] = out[key].map((s, i) => strictened(s, `${pointer}/${key}/${i}`));
  }
  for (const key of SUBSCHEMAS) if (isObject(out[key])) out[key] = strictened(out[key], `${pointer}/${key}`);
  return out;
}

// The compiled `tools` part of a spec (expressions once per spec).
const parts = new WeakMap();
function partOf(spec) {
  if (parts.has(spec)) return parts.get(spec);
  const data = spec.data && spec.data.tools;
  const c = (s) => (s === undefined ? null : compileExpression(s));
  const part = data && {
    request: data.request.map(c),
    select: data.select ? data.select.map(c) : null,
    translations: data.translations || {},
    definitions: data.definitions.map((d) => ({ ...d, when: c(d.when), name: c(d.name), parameters: c(d.parameters), strict: c(d.strict) })),
    looksLike: c(data.looks_like),
  };
  parts.set(spec, part);
  return part;
}

// §8.1 looks_like: an element this format's predicate fails on and another's holds on is
// refused naming that format. `others`: [name, spec] of the other formats, bases first.
function refuseForeign(format, part, lists, others) {
  if (!part.looksLike) return;
  let position = 0;
  for (const list of lists) {
    for (const element of list) {
      if (isObject(element) && !holds(part.looksLike, element)) {
        const owners = others.map(([name, s]) => [name, partOf(s)])
          .filter(([, p]) => p && p.looksLike && p.looksLike.source !== part.looksLike.source && holds(p.looksLike, element))
          .map(([name]) => name);
        if (owners.length) throw invalid(format, `element ${position} of the tool list is a tool in the ${owners[0]} format, not ${format}'s`);
      }
      position++;
    }
  }
}

// compileTools(spec, tools, others): { names, parameters: {name: schema|null}, tools: Map }.
export function compileTools(spec, input, others = []) {
  const format = spec.format;
  const part = partOf(spec);
  if (!part) throw new ToolwireError('not_declared', `${format} declares no tools part`, { part: 'tools' });
  let given = input;
  if (typeof given === 'string') {
    try { given = loads(given); } catch { throw invalid(format, 'the tools are not JSON text'); }
  }
  let lists;
  if (Array.isArray(given)) lists = [given];
  else if (isObject(given)) {
    lists = part.request.map((e) => e.evaluate(given)).filter((v) => v !== null);
    if (!lists.length) throw invalid(format, 'the request body carries no tool list');
    if (lists.some((l) => !Array.isArray(l))) throw invalid(format, 'a tool list is not a list');
  } else throw invalid(format, 'tools must be a request body, a tool list, or JSON text of either');
  refuseForeign(format, part, lists, others);
  const definitions = [];
  for (const list of lists) {
    if (!part.select) { definitions.push(...list); continue; }
    for (const select of part.select) {
      const found = select.evaluate(list);
      if (found === null) continue;
      if (!Array.isArray(found)) throw invalid(format, `${select.source} does not yield a list`);
      definitions.push(...found);
    }
  }
  const tools = new Map();
  const offer = (name, tool, index) => {
    if (tools.has(name)) throw invalid(format, `tool ${name} is offered twice`, { tool: name, index });
    tools.set(name, tool);
  };
  definitions.forEach((definition, index) => {
    if (!isObject(definition)) throw invalid(format, `tool ${index} is not an object`, { index });
    const entry = part.definitions.find((d) => !d.when || holds(d.when, definition));
    if (!entry) throw invalid(format, `tool ${index} matches no definition of ${format}`, { index });
    if ('not_a_tool' in entry) return;
    const nameValue = entry.name ? entry.name.evaluate(definition) : null;
    const name = typeof nameValue === 'string' && nameValue ? nameValue : null;
    if ('unchecked' in entry) {
      for (const n of entry.names || (name ? [name] : [])) offer(n, { name: n, schema: null }, index);
      return;
    }
    if (!name) throw invalid(format, `tool ${index} has no name`, { index });
    const fail = (message, pointer = null) => invalid(format, `tool ${name}: ${message}`, { tool: name, index, pointer });
    let schema; let dialect = entry.dialect;
    if ('schema' in entry) schema = entry.schema;
    else {
      schema = entry.parameters.evaluate(definition);
      if (schema === null) schema = entry.absent ?? { type: 'object' };
      else {
        if (!isObject(schema) && typeof schema !== 'boolean') throw fail('its schema is not an object');
        if (entry.translate) {
          const table = part.translations[entry.translate];
          try { schema = translate(schema, table); } catch (error) { throw fail(error.message, error.pointer); }
          dialect = table.dialect;
        }
      }
      if (entry.strict && holds(entry.strict, definition)) {
        try { schema = strictened(schema); } catch (error) { throw fail(error.message, error.pointer); }
      }
    }
    const ajv = validatorOf(dialectOf(schema, dialect));
    if (!ajv.validateSchema(schema)) {
      const first = ajv.errors[0];
      throw fail(`its schema is not a valid JSON Schema: ${first.message}`, first.instancePath);
    }
    try {
      checkReferences(schema);
      checkPatterns(schema);
    } catch (error) { throw fail(error.message, error.pointer); }
    if (isObject(schema) && typeof schema.$id === 'string') ajv.removeSchema(schema.$id); // one $id, many requests
    let validate;
    try { validate = ajv.compile(withBudgetChecks(withProtoProperty(schema))); } catch (error) { throw fail(`its schema does not compile: ${error.message}`, ''); }
    offer(name, { name, schema, validate }, index);
  });
  return { format, names: [...tools.keys()], parameters: Object.fromEntries([...tools].map(([n, t]) => [n, t.schema])), tools };
}

// Tools from {name: JSON Schema or null} (Python's Tools.from_schemas, draft 2020-12 unless a
// schema's $schema says otherwise): for calls read from model text (specs/README.md §1b.12).
export function toolsFromSchemas(schemas) {
  const tools = new Map();
  for (const [name, schema] of Object.entries(schemas)) {
    if (schema === null) { tools.set(name, { name, schema: null }); continue; }
    const ajv = validatorOf(dialectOf(schema, 'draft2020-12'));
    if (!ajv.validateSchema(schema)) throw invalid(null, `tool ${name}: its schema is not a valid JSON Schema`, { tool: name });
    try { checkPatterns(schema); } catch (error) { throw invalid(null, `tool ${name}: ${error.message}`, { tool: name, pointer: error.pointer }); }
    tools.set(name, { name, schema, validate: ajv.compile(withBudgetChecks(withProtoProperty(schema))) });
  }
  return { format: null, names: [...tools.keys()], parameters: Object.fromEntries([...tools].map(([n, t]) => [n, t.schema])), tools };
}

const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0); // ASCII pointers and keywords

// §8.2: each call gets unknown_tool, arguments_invalid and arguments_errors.
export function checkCalls(compiled, calls) {
  return calls.map((call) => {
    const checked = { ...call, unknown_tool: false, arguments_invalid: false, arguments_errors: [] };
    const tool = compiled.tools.get(call.name);
    if (!tool) { // §8.2: one error naming what was offered
      checked.unknown_tool = true;
      checked.arguments_errors = [{ pointer: '', keyword: 'unknown_tool', message: `The tools offered are: ${compiled.names.join(', ')}.` }];
      return checked;
    }
    if (!tool.validate || call.arguments_undecodable) return checked;
    let valid;
    try { valid = withOneBudget(() => tool.validate(call.arguments)); } catch (error) { // one call, one regex budget
      if (!(error instanceof RangeError)) throw error;
      checked.arguments_invalid = true; // nested deeper than the check can follow (§8.2)
      checked.arguments_errors = [{ pointer: '', keyword: 'too_deep', message: 'the arguments nest too deeply to be checked' }];
      return checked;
    }
    if (valid) return checked;
    // An applicator (anyOf, oneOf, contains) reports once, as itself: its subschemas' errors go (tools_errors.js).
    const errors = reportedErrors(tool.validate.schema, settle(tool.validate.errors))
      .map((e) => ({ pointer: e.instancePath, keyword: e.keyword, message: e.message }));
    const unique = [...new Map(errors.map((e) => [`${e.pointer}\u0000${e.keyword}\u0000${e.message}`, e])).values()];
    unique.sort((a, b) => byCodePoint(a.pointer, b.pointer) || byCodePoint(a.keyword, b.keyword));
    checked.arguments_invalid = true;
    checked.arguments_errors = unique;
    return checked;
  });
}
