// Loading wire specs: strict YAML, the meta-schema (ajv), the rules of §2, expressions,
// and `extends` (§1.6) with every problem located in the file its value came from.
import Ajv from 'ajv';
import jmespath from 'jmespath';
import { readYaml, locate, escapePointer } from './yaml.js';
import { compileExpression, canBeBoolean, ExpressionProblem } from './expression.js';
import { streamExpressions, streamProblems, mergeStream } from './loader_stream.js';
import { metaSchema as providedSchema, nodeFs } from './meta_schemas.js';

const KINDS = ['refuse', 'calls', 'server_side', 'ignore'];
const LISTS = new Set(['calls', 'server_side', 'ignore', 'refuse']);
const OWN = new Set(['spec_version', 'format', 'title', 'doc_ref', 'description', 'sniff', 'extends', 'remove']);
const ENTRY_EXPRESSIONS = ['select', 'when', 'name', 'arguments', 'id', 'status', 'input'];

let validator = null;
function metaSchema(specsDir) {
  if (!validator) {
    const schema = providedSchema('wire-spec.v1.schema.json', specsDir);
    validator = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(schema);
  }
  return validator;
}

const problem = (doc, pointer, rule, message, key = false) => {
  const [line, col] = locate(doc, pointer, key);
  return { file: doc.path, line, col, pointer, rule, message };
};
const objects = (v) => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object' && !Array.isArray(x)) : []);

function schemaProblems(doc, data, specsDir, at = (pointer, rule, message, key) => problem(doc, pointer, rule, message, key)) {
  const validate = metaSchema(specsDir);
  if (validate(data)) return [];
  const out = [];
  for (const error of validate.errors) {
    const pointer = error.instancePath;
    if (error.keyword === 'additionalProperties') {
      const name = error.params.additionalProperty;
      if (!name.startsWith('x-')) out.push(at(`${pointer}/${escapePointer(name)}`, 'unknown-key', `unknown key '${name}'`, true));
    } else if (error.keyword === 'required') out.push(at(pointer, 'missing-key', error.message));
    else if (error.keyword === 'type') out.push(at(pointer, 'wrong-type', error.message));
    else if (error.keyword === 'const' && pointer === '/spec_version') out.push(at(pointer, 'unsupported-version', 'spec_version is not supported'));
    else if (error.keyword !== 'if') out.push(at(pointer, 'bad-value', error.message));
  }
  return out;
}

// [pointer, source] of every expression a spec holds.
function* expressions(data) {
  for (const key of ['truncated', 'finish_reason']) if (typeof data[key] === 'string') yield [`/${key}`, data[key]];
  if (data.sniff && typeof data.sniff.when === 'string') yield ['/sniff/when', data.sniff.when];
  if (data.normalize && typeof data.normalize.detect === 'string') yield ['/normalize/detect', data.normalize.detect];
  yield* replyPartExpressions(data);
  if (data.render && typeof data.render === 'object') yield* renderExpressions(data.render);
  for (const [i, source] of objects(data.items).entries()) {
    if (typeof source.select === 'string') yield [`/items/${i}/select`, source.select];
    for (const [j, nested] of objects(source.nested).entries()) {
      for (const key of ['when', 'select']) if (typeof nested[key] === 'string') yield [`/items/${i}/nested/${j}/${key}`, nested[key]];
    }
  }
  for (const kind of KINDS) {
    for (const [i, entry] of objects(data[kind]).entries()) {
      for (const key of ENTRY_EXPRESSIONS.filter((k) => k in entry).sort()) {
        if (typeof entry[key] === 'string') yield [`/${kind}/${i}/${key}`, entry[key]];
      }
      for (const [name, source] of Object.entries(entry.keep && typeof entry.keep === 'object' ? entry.keep : {})) {
        if (typeof source === 'string') yield [`/${kind}/${i}/keep/${escapePointer(name)}`, source];
      }
    }
  }
  yield* streamExpressions(data);
}

// §1.11-1.13: the expressions of `shape`, `error` and `failed_calls`.
function* replyPartExpressions(data) {
  if (data.shape && typeof data.shape.when === 'string') yield ['/shape/when', data.shape.when];
  for (const [i, part] of objects(data.shape && data.shape.parts).entries()) {
    if (typeof part.when === 'string') yield [`/shape/parts/${i}/when`, part.when];
  }
  const error = data.error && typeof data.error === 'object' && !Array.isArray(data.error) ? data.error : null;
  if (error) {
    for (const key of ['when', 'message', 'type', 'code']) if (typeof error[key] === 'string') yield [`/error/${key}`, error[key]];
    for (const [name, source] of Object.entries(error.keep && typeof error.keep === 'object' ? error.keep : {})) {
      if (typeof source === 'string') yield [`/error/keep/${escapePointer(name)}`, source];
    }
  }
  for (const [i, failed] of objects(data.failed_calls).entries()) {
    for (const key of ['when', 'reason']) if (typeof failed[key] === 'string') yield [`/failed_calls/${i}/${key}`, failed[key]];
  }
}

// §2.2: the pointers whose expression is a predicate.
const PREDICATE = new RegExp('^/(?:truncated|sniff/when|shape/when|shape/parts/\\d+/when|error/when|failed_calls/\\d+/when|normalize/detect'
  + '|(?:calls|server_side|ignore|refuse)/\\d+/when|items/\\d+/nested/\\d+/when'
  + '|stream/(?:event|shape|complete|sniff/when|error/when|refuse/\\d+/when|rules/\\d+/when))$');

// specs/README.md §1.2: an unquoted null/true/false is a field name, not the literal
// (`bare-literal-name`). The parse tree gives "null" and null the same field node, so the
// tokens decide: an unquoted identifier is a field step unless `(` (a function) or `:` (a
// multi-select hash key) follows. Returns the name and its offset in code points, or null.
const BARE_NAMES = new Set(['null', 'true', 'false']);
function bareLiteralName(source) {
  const tokens = jmespath.tokenize(source);
  for (const [i, token] of tokens.entries()) {
    const next = tokens[i + 1];
    if (token.type === 'UnquotedIdentifier' && BARE_NAMES.has(token.value)
        && !(next && (next.type === 'Lparen' || next.type === 'Colon'))) {
      return [Array.from(source.slice(0, token.start)).length, token.value];
    }
  }
  return null;
}

// specs/README.md §6.1: every ${response:<expression>} placeholder of a render part.
const RESPONSE = '${response:';
function* renderExpressions(part) {
  const found = [];
  const stack = Object.entries(part).map(([k, v]) => [`/render/${escapePointer(k)}`, v]);
  while (stack.length) {
    const [pointer, value] = stack.pop();
    if (typeof value === 'string' && value.startsWith(RESPONSE) && value.endsWith('}')) {
      found.push([pointer, value.slice(RESPONSE.length, -1).replace(/\?$/, '').trim()]);
    } else if (Array.isArray(value)) value.forEach((v, i) => stack.push([`${pointer}/${i}`, v]));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) stack.push([`${pointer}/${escapePointer(k)}`, v]);
    }
  }
  yield* found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

// Line and column of character `offset` of the expression at `pointer` (§2): in a one-line
// scalar past its opening quote (and a render placeholder's `${response:`), else the scalar's place.
function atOffset(doc, pointer, source, offset) {
  const [line, col] = locate(doc, pointer);
  if (source.includes('\n')) return [line, col];
  const inside = pointer.startsWith('/render/') ? RESPONSE.length : 0;
  return [line, col + 1 + inside + offset];
}

function expressionProblems(doc) {
  const out = [];
  for (const [pointer, source] of expressions(doc.data)) {
    let compiled;
    try { compiled = compileExpression(source); } catch (error) {
      if (!(error instanceof ExpressionProblem)) throw error;
      const [line, col] = atOffset(doc, pointer, source, error.offset);
      out.push({ file: doc.path, line, col, pointer, rule: error.rule, message: error.message });
      continue;
    }
    const bare = bareLiteralName(source);
    if (bare) {
      const [offset, name] = bare;
      const [line, col] = atOffset(doc, pointer, source, offset);
      out.push({ file: doc.path, line, col, pointer, rule: 'bare-literal-name', message: `unquoted ${name} is a field name in JMESPath, not the literal: write \`${name}\` (backquoted) for the value, or "${name}" (quoted) for a field named ${name}` });
    }
    if (PREDICATE.test(pointer) && !canBeBoolean(compiled.ast)) {
      const [line, col] = locate(doc, pointer); // at the expression's first character
      out.push({ file: doc.path, line, col: source.includes('\n') ? col : col + 1, pointer, rule: 'predicate-not-boolean', message: 'this predicate can never yield a boolean, so it never holds: compare or test the value instead' });
    }
  }
  return out;
}

function ruleProblems(data, at, expectedFormat) {
  const out = [];
  if (expectedFormat && typeof data.format === 'string' && data.format !== expectedFormat) {
    out.push(at('/format', 'format-name', `format must match the file name ${expectedFormat}`));
  }
  for (const [i, source] of objects(data.items).entries()) {
    const given = ['type_field', 'type_by_key', 'type_const'].filter((k) => k in source);
    if (given.length !== 1) out.push(at(`/items/${i}`, 'type-source', 'a source needs exactly one of type_field, type_by_key, type_const'));
    if ('type_default' in source && !('type_field' in source)) out.push(at(`/items/${i}/type_default`, 'type-source', 'type_default goes with type_field'));
  }
  const listed = new Map();
  for (const kind of KINDS) {
    for (const [i, entry] of objects(data[kind]).entries()) {
      if (typeof entry.type === 'string') listed.set(entry.type, [...(listed.get(entry.type) || []), [kind, i, entry]]);
    }
  }
  for (const [type, places] of listed) {
    if (places.length < 2) continue;
    for (const [kind, i, entry] of places) if (!('when' in entry)) out.push(at(`/${kind}/${i}`, 'when-required', `type '${type}' is listed more than once`));
  }
  out.push(...streamProblems(data, at));
  return out;
}

// The problems of one document on its own (§2), without extends resolution.
function ownProblems(doc, expectedFormat, specsDir) {
  if (!doc.data || typeof doc.data !== 'object' || Array.isArray(doc.data)) return [problem(doc, '', 'not-a-mapping', 'a spec must be a mapping')];
  const at = (p, rule, message, key) => problem(doc, p, rule, message, key);
  const out = [...schemaProblems(doc, doc.data, specsDir), ...expressionProblems(doc), ...ruleProblems(doc.data, at, expectedFormat)];
  if ('remove' in doc.data && !('extends' in doc.data)) out.push(problem(doc, '/remove', 'extends-remove', 'remove needs extends', true));
  return out;
}

const sameEntry = (a, b) => a.type === b.type && (a.when ?? null) === (b.when ?? null);

// §1.6: the derived document laid over its resolved base; slots keep each value's origin.
function merge(base, derived) {
  const merged = { data: {}, origin: {} }; // origin: merged pointer prefix -> [doc, pointer]
  const problems = [];
  for (const [key, value] of Object.entries(base.data)) {
    if (OWN.has(key) || key.startsWith('x-') || LISTS.has(key) || key === 'stream') continue;
    merged.data[key] = value; merged.origin[`/${key}`] = base.originOf(`/${key}`);
  }
  for (const [key, value] of Object.entries(derived.doc.data)) {
    if ((OWN.has(key) && key !== 'extends') || LISTS.has(key)) {
      if (key !== 'remove') { merged.data[key] = value; merged.origin[`/${key}`] = [derived.doc, `/${key}`]; }
      continue;
    }
    if (key !== 'stream') { merged.data[key] = value; merged.origin[`/${key}`] = [derived.doc, `/${key}`]; }
  }
  if ('stream' in base.data || 'stream' in derived.doc.data) { // §9.12
    const { stream, origin } = mergeStream(base.data.stream, derived.doc.data.stream, (p) => base.originOf(p), derived.doc);
    merged.data.stream = stream; Object.assign(merged.origin, origin);
  }
  const slots = {};
  for (const kind of KINDS) slots[kind] = (base.data[kind] || []).map((entry, i) => ({ entry, from: base.originOf(`/${kind}/${i}`) }));
  for (const [i, removal] of objects(derived.doc.data.remove).entries()) {
    const list = slots[removal.list] || [];
    const at = list.findIndex((s) => sameEntry(s.entry, removal));
    if (at === -1) problems.push(problem(derived.doc, `/remove/${i}`, 'extends-remove', 'the base has no such entry to remove'));
    else list.splice(at, 1);
  }
  const added = { calls: [], server_side: [], ignore: [], refuse: [] };
  for (const kind of KINDS) {
    for (const [i, entry] of objects(derived.doc.data[kind]).entries()) {
      const slot = { entry, from: [derived.doc, `/${kind}/${i}`] };
      const same = slots[kind].findIndex((s) => !s.derived && sameEntry(s.entry, entry));
      if (same !== -1) { slots[kind][same] = { ...slot, derived: true }; continue; }
      for (const other of KINDS) {
        const at = slots[other].findIndex((s) => !s.derived && sameEntry(s.entry, entry));
        if (other !== kind && at !== -1) slots[other].splice(at, 1);
      }
      added[kind].push({ ...slot, derived: true });
    }
  }
  for (const kind of KINDS) {
    const all = [...slots[kind], ...added[kind]];
    if (all.length || kind in base.data || kind in derived.doc.data) merged.data[kind] = all.map((s) => s.entry);
    all.forEach((s, i) => { merged.origin[`/${kind}/${i}`] = s.from; });
  }
  return { merged, problems };
}

// A resolved spec: { data, originOf(pointer) -> [doc, pointer] }.
function resolved(data, origin, fallbackDoc) {
  return {
    data,
    originOf(pointer) {
      let probe = pointer;
      while (probe) {
        if (origin[probe]) {
          const [doc, at] = origin[probe];
          return [doc, at + pointer.slice(probe.length)];
        }
        probe = probe.slice(0, probe.lastIndexOf('/'));
      }
      return [fallbackDoc, pointer];
    },
  };
}

// Load `name` among `files` ({'x.yaml': text}); bases come from files, then `below`
// (already resolved specs by format). Returns { spec (resolved or null), problems }.
export function loadFile(name, files, below, specsDir, chain = []) {
  const doc = readYaml(files[name], name);
  if (doc.problems.length) return { spec: null, problems: doc.problems };
  const format = name.replace(/\.yaml$/, '');
  const own = ownProblems(doc, format, specsDir);
  const data = doc.data;
  if (own.length && own[0].rule === 'not-a-mapping') return { spec: null, problems: own };
  if (typeof data.extends !== 'string') return { spec: own.length ? null : { data, originOf: (pointer) => [doc, pointer] }, problems: own };
  const here = [...chain, { format, doc }];
  const baseName = data.extends;
  let base = null;
  if (baseName !== format && `${baseName}.yaml` in files) {
    const start = here.findIndex((link) => link.format === baseName);
    if (start !== -1) {
      const cycle = here.slice(start).map((link) => problem(link.doc, '/extends', 'extends-cycle', 'a spec reaches itself through its bases'));
      return { spec: null, problems: [...own, ...cycle], cycle: true };
    }
    const loaded = loadFile(`${baseName}.yaml`, files, below, specsDir, here);
    if (!loaded.spec) return { spec: null, problems: [...own, ...loaded.problems], cycle: loaded.cycle };
    base = loaded.spec;
  } else if (below[baseName]) base = below[baseName];
  else if (baseName === format) return { spec: null, problems: [...own, problem(doc, '/extends', 'extends-cycle', 'a spec extends itself')] };
  if (!base) return { spec: null, problems: [...own, problem(doc, '/extends', 'extends-unknown', `no spec '${baseName}' to extend`)] };
  const { merged, problems: mergeProblems } = merge(base, { doc });
  const spec = resolved(merged.data, merged.origin, doc);
  const at = (pointer, rule, message, key) => {
    const [origin, local] = spec.originOf(pointer);
    return problem(origin, local, rule, message, key);
  };
  const { extends: _ignored, ...checked } = merged.data;
  // the merged check sees the derived spec's own values again: keep what it adds
  const identity = (p) => [p.file, p.line, p.col, p.pointer, p.rule].join('\u0000');
  const seen = new Set(own.map(identity));
  const found = [...mergeProblems, ...schemaProblems(doc, checked, specsDir, at), ...ruleProblems(checked, at, null)];
  const problems = [...own, ...found.filter((p) => !seen.has(identity(p)))];
  return { spec: problems.length ? null : spec, problems };
}

// Problems in order: by file, then line, then column (§2).
export function sortProblems(problems) {
  const key = (p) => [p.file, String(p.line).padStart(9, '0'), String(p.col).padStart(9, '0'), p.pointer, p.rule];
  const unique = [...new Map(problems.map((p) => [[...key(p), p.message].join('\u0000'), p])).values()];
  return unique.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  });
}

// Compile a resolved spec's expressions for the interpreter.
export function compileSpec(data) {
  const c = (source) => compileExpression(source);
  const entry = (e, defaults = {}) => {
    const out = { ...e };
    for (const key of ['when', 'name', 'arguments', 'id', 'status', 'input']) {
      const source = e[key] ?? defaults[key];
      if (source !== undefined) out[key] = c(source);
    }
    if (e.keep) out.keep = Object.entries(e.keep).map(([name, source]) => [name, c(source)]);
    return out;
  };
  return {
    format: data.format,
    unknown_items: data.unknown_items,
    sniff: data.sniff ? { when: c(data.sniff.when), priority: data.sniff.priority } : null,
    truncated: data.truncated ? c(data.truncated) : null,
    finish_reason: data.finish_reason ? c(data.finish_reason) : null,
    stream_event: data.stream && typeof data.stream.event === 'string' ? c(data.stream.event) : null,
    items: data.items.map((s) => ({ ...s, select: c(s.select), nested: (s.nested || []).map((n) => ({ when: c(n.when), select: c(n.select) })) })),
    calls: (data.calls || []).map((e) => entry(e)),
    server_side: (data.server_side || []).map((e) => entry(e, { id: 'id', name: 'name', status: 'status' })),
    ignore: (data.ignore || []).map((e) => entry(e)),
    refuse: (data.refuse || []).map((e) => entry(e)),
    choices: data.choices ? { list: data.choices.list } : null,
    structured_output: data.structured_output ? { text: c(data.structured_output.text) } : null,
    content: typeof data.content === 'string' ? c(data.content) : null,
    normalize: data.normalize ? { ...data.normalize, detect: data.normalize.detect ? c(data.normalize.detect) : null } : null,
    shape: data.shape ? { when: c(data.shape.when), needs: data.shape.needs, parts: (data.shape.parts || []).map((p) => ({ when: c(p.when), is: p.is })) } : null,
    error: data.error ? {
      when: c(data.error.when), message: c(data.error.message),
      type: data.error.type ? c(data.error.type) : null, code: data.error.code ? c(data.error.code) : null,
      keep: Object.entries(data.error.keep || {}).map(([name, source]) => [name, c(source)]),
    } : null,
    failed_calls: (data.failed_calls || []).map((f) => ({ when: c(f.when), type: f.type, reason: f.reason ? c(f.reason) : null })),
    data, // the resolved spec, for the parts compiled by their own modules (tools, stream, render)
  };
}

// Every bundled wire spec, resolved and compiled: { format: compiled }.
export function loadFolder(dir, specsDir, below = {}) {
  const fs = nodeFs();
  const files = {};
  for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.yaml')).sort()) files[name] = fs.readFileSync(`${dir}/${name}`, 'utf8');
  const specs = {}; const problems = [];
  for (const name of Object.keys(files)) {
    const loaded = loadFile(name, files, below, specsDir);
    problems.push(...loaded.problems);
    if (loaded.spec) specs[name.replace(/\.yaml$/, '')] = loaded.spec;
  }
  return { specs, problems: sortProblems(problems) };
}
