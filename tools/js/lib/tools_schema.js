// A tool schema checked before any call (specs/README.md §8.1, §8.2): every $ref resolves
// inside the schema (nothing is ever retrieved), no keyword applies the schema to the same
// value forever, and the string formats the providers document are asserted.
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_MAP = ['dependentSchemas', 'dependencies'];
const DESCEND_ONE = ['items', 'additionalItems', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const DESCEND_LIST = ['prefixItems', 'items'];
const DESCEND_MAP = ['properties', 'patternProperties', '$defs', 'definitions'];
const META = new Set(['https://json-schema.org/draft/2020-12/schema', 'http://json-schema.org/draft-07/schema']);
const ROOT = 'https://toolwire.invalid/root.json';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const escape = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const problem = (pointer, message) => Object.assign(new Error(message), { pointer });

// Every subschema of `node`: [keyword, key (a name or an index; null where the keyword holds
// one schema), the subschema, whether it applies to the same value].
export function* subschemas(node) {
  for (const key of [...IN_PLACE_ONE, ...DESCEND_ONE]) {
    if (Object.hasOwn(node, key) && !Array.isArray(node[key])) yield [key, null, node[key], IN_PLACE_ONE.includes(key)];
  }
  for (const key of [...IN_PLACE_LIST, ...DESCEND_LIST]) {
    if (Object.hasOwn(node, key) && Array.isArray(node[key])) for (const [i, sub] of node[key].entries()) yield [key, i, sub, IN_PLACE_LIST.includes(key)];
  }
  for (const key of [...IN_PLACE_MAP, ...DESCEND_MAP]) {
    if (!Object.hasOwn(node, key) || !isObject(node[key])) continue;
    for (const [name, sub] of Object.entries(node[key])) {
      if (isObject(sub) || typeof sub === 'boolean') yield [key, name, sub, IN_PLACE_MAP.includes(key)];
    }
  }
}

// ajv checks no property named `__proto__` (its `properties` skip that name, so such a member is
// unchecked, and additional where additionalProperties is false). The copy given to ajv declares
// that property's subschema again as the pattern ^__proto__$, which ajv applies: the member is
// checked, and not additional, as in every other implementation.
const PROTO_PATTERN = '^__proto__$';
const declaresProto = (node) => isObject(node) && Object.hasOwn(node, 'properties') && isObject(node.properties) && Object.hasOwn(node.properties, '__proto__');
// A copy of `schema` in which every schema node is copied once (a node met twice is one copy)
// and then handed with its copy to `finish`, which may add keywords to the copy: the one walk
// the copies ajv compiles (a `__proto__` property declared, budget checks added) are made by.
export function copySchema(schema, finish) {
  const copies = new Map();
  const copy = (node) => {
    if (!isObject(node)) return node;
    if (copies.has(node)) return copies.get(node);
    const out = { ...node };
    copies.set(node, out);
    const holding = new Map(); // keyword -> whether it holds one schema (else a list or map of them)
    for (const [keyword, key] of subschemas(node)) holding.set(keyword, key === null);
    for (const [keyword, one] of holding) {
      const value = node[keyword];
      if (one) out[keyword] = copy(value);
      else if (Array.isArray(value)) out[keyword] = value.map(copy);
      else out[keyword] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
    }
    finish(node, out);
    return out;
  };
  return copy(schema);
}

export function withProtoProperty(schema) {
  const declare = (node, out) => {
    if (declaresProto(node)) {
      const patterns = isObject(out.patternProperties) ? { ...out.patternProperties } : {};
      const sub = out.properties.__proto__; // an own member here (a copy keeps it own)
      patterns[PROTO_PATTERN] = Object.hasOwn(patterns, PROTO_PATTERN) ? { allOf: [patterns[PROTO_PATTERN], sub] } : sub;
      out.patternProperties = patterns;
    }
  };
  const mentions = (node, seen = new Set()) => {
    if (!isObject(node) || seen.has(node)) return false;
    seen.add(node);
    return declaresProto(node) || [...subschemas(node)].some(([, , sub]) => mentions(sub, seen));
  };
  return mentions(schema) ? copySchema(schema, declare) : schema;
}

function* children(node, pointer) {
  for (const [keyword, key, sub, inPlace] of subschemas(node)) {
    yield [inPlace, key === null ? `${pointer}/${keyword}` : `${pointer}/${keyword}/${escape(key)}`, sub];
  }
}

const withoutHash = (url) => { const u = new URL(url); u.hash = ''; return u.href; };

function walk(schema) {
  const nodes = new Map(); // node -> {pointer, base}
  const resources = new Map([[ROOT, schema]]);
  const anchors = new Map();
  const stack = [[schema, '', ROOT]];
  while (stack.length) {
    const [node, pointer, outer] = stack.pop();
    if (!isObject(node) || nodes.has(node)) continue;
    let base = outer;
    if (typeof node.$id === 'string') {
      if (node.$id.startsWith('#')) anchors.set(`${base}${node.$id}`, node); // draft 7 anchor
      else { base = withoutHash(new URL(node.$id, base).href); resources.set(base, node); }
    }
    if (typeof node.$anchor === 'string') anchors.set(`${base}#${node.$anchor}`, node);
    if (typeof node.$dynamicAnchor === 'string') anchors.set(`${base}#${node.$dynamicAnchor}`, node);
    nodes.set(node, { pointer, base });
    for (const [, at, sub] of children(node, pointer)) stack.push([sub, at, base]);
  }
  return { nodes, resources, anchors };
}

function resolve(ref, base, found) {
  let url;
  try { url = new URL(ref, base); } catch { return undefined; }
  const doc = withoutHash(url.href);
  if (META.has(doc.replace(/#$/, ''))) return null; // a meta-schema: known, and not this schema's
  const root = found.resources.get(doc);
  if (root === undefined) return undefined;
  const fragment = decodeURIComponent(url.hash.slice(1));
  if (fragment === '') return root;
  if (!fragment.startsWith('/')) return found.anchors.get(`${doc}#${fragment}`);
  let target = root;
  for (const step of fragment.slice(1).split('/')) {
    const key = step.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(target) && /^(0|[1-9]\d*)$/.test(key) && Number(key) < target.length) target = target[Number(key)];
    else if (isObject(target) && Object.hasOwn(target, key)) target = target[key];
    else return undefined;
  }
  return target;
}

// Throws {pointer, message} where a $ref does not resolve inside the schema, or where the
// schema applies itself to the same value again without descending into it.
export function checkReferences(schema) {
  if (!isObject(schema)) return;
  const found = walk(schema);
  const edges = new Map();
  for (const [node, { pointer, base }] of found.nodes) {
    const near = [...children(node, pointer)].filter(([inPlace, , sub]) => inPlace && isObject(sub)).map(([, , sub]) => sub);
    for (const keyword of ['$ref', '$dynamicRef']) {
      if (typeof node[keyword] !== 'string') continue;
      const target = resolve(node[keyword], base, found);
      if (target === undefined) throw problem(`${pointer}/${keyword}`, `${keyword} ${node[keyword]} does not resolve inside the schema (nothing is ever retrieved)`);
      if (isObject(target)) near.push(target);
    }
    edges.set(node, near);
  }
  const state = new Map();
  for (const root of edges.keys()) {
    if (state.get(root)) continue;
    const path = [[root, edges.get(root)[Symbol.iterator]()]];
    state.set(root, 1);
    while (path.length) {
      const [node, rest] = path[path.length - 1];
      const step = rest.next();
      if (step.done) { state.set(node, 2); path.pop(); continue; }
      const next = step.value;
      if (!edges.has(next)) continue;
      if (state.get(next) === 1) throw problem(found.nodes.get(node).pointer, 'the schema applies itself to the same value again without descending into it');
      if (!state.get(next)) { state.set(next, 1); path.push([next, edges.get(next)[Symbol.iterator]()]); }
    }
  }
}

// The formats asserted (specs/README.md §8.2), each by the rule written there.
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
function date(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return !(month === 2 && day === 29 && !leap);
}
function time(text) {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/.exec(text);
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3]) > 60) return false;
  return m[4] === undefined || (Number(m[4]) <= 23 && Number(m[5]) <= 59);
}
const dateTime = (text) => text.length > 11 && 'Tt'.includes(text[10]) && date(text.slice(0, 10)) && time(text.slice(11));
const DURATION = /^P(?:\d+W|(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
function hostname(text) {
  const name = text.endsWith('.') ? text.slice(0, -1) : text;
  return name.length > 0 && name.length <= 253 && name.split('.').every((p) => LABEL.test(p));
}
const ipv4 = (text) => /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/.test(text) && text.split('.').every((p) => Number(p) <= 255);
function ipv6(text) {
  const at = text.indexOf('::');
  const compressed = at !== -1;
  const head = compressed ? text.slice(0, at) : text;
  const tail = compressed ? text.slice(at + 2) : '';
  if (tail.includes('::') || (!compressed && !head)) return false;
  const parts = [...(head ? head.split(':') : []), ...(compressed && tail ? tail.split(':') : [])];
  let groups = 0;
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes('.')) { if (!ipv4(part)) return false; groups += 2; }
    else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) groups += 1;
    else return false;
  }
  return compressed ? groups < 8 : groups === 8;
}
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL = new RegExp(`^(?:${ATOM}(?:\\.${ATOM})*|"(?:[^"\\\\\\r\\n]|\\\\[^\\r\\n])*")$`);
function email(text) {
  const at = text.lastIndexOf('@');
  if (at === -1 || !LOCAL.test(text.slice(0, at))) return false;
  const domain = text.slice(at + 1);
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const inner = domain.slice(1, -1);
    return inner.slice(0, 5).toLowerCase() === 'ipv6:' ? ipv6(inner.slice(5)) : ipv4(inner);
  }
  return hostname(domain) && !domain.endsWith('.');
}
export const FORMATS = {
  'date-time': dateTime,
  date,
  time,
  duration: (t) => DURATION.test(t),
  email,
  hostname,
  ipv4,
  ipv6,
  uuid: (t) => /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(t),
  uri: (t) => /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/.test(t),
};
