// The evaluation of a compiled expression (specs/README.md §1.2) on data that came from outside.
// npm jmespath parses; it does not evaluate here, because its evaluator reads a field with
// `value[name]`: a reply's `constructor` or `toString` would be Object.prototype's, a `__proto__`
// member a prototype, and a member named `hasOwnProperty` or `jmespathType` breaks it. Here every
// field is an own property or absent, every object built holds its keys as own properties, and
// an &expression is a value of its own class, never a tagged object.
// The semantics are npm jmespath 0.16's on JSON data, which the conformance vectors pin.

import { own, put } from './json.js';

const EXPREF = Symbol('expref');
const kind = (v) => Object.prototype.toString.call(v);
export const isArray = (v) => Array.isArray(v);
export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && kind(v) === '[object Object]';


class EvaluationError extends Error {}
const fail = (message) => new EvaluationError(message);

function isFalse(v) {
  if (v === '' || v === false || v === null || v === undefined) return true;
  if (isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.keys(v).length === 0;
  return false;
}

// JSON equality on own members (npm's strictDeepEqual, without its inherited reads).
export function sameValue(a, b) {
  if (a === b) return true;
  if (isArray(a)) return isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

function typeName(v) {
  if (v !== null && typeof v === 'object' && v[EXPREF]) return 'expref';
  switch (kind(v)) {
    case '[object String]': return 'string';
    case '[object Number]': return 'number';
    case '[object Array]': return 'array';
    case '[object Boolean]': return 'boolean';
    case '[object Null]': return 'null';
    case '[object Object]': return 'object';
    default: return 'unknown';
  }
}

// Signatures as npm declares them: the types each parameter takes ('any': unchecked); only the
// declared parameters are checked, so merge() checks its first argument, as npm does.
const SIGNATURES = {
  abs: [['number']], ceil: [['number']], floor: [['number']],
  contains: [['string', 'array'], ['any']], ends_with: [['string'], ['string']], starts_with: [['string'], ['string']],
  join: [['string'], ['array-string']], keys: [['object']], values: [['object']], length: [['string', 'array', 'object']],
  map: [['expref'], ['array']], merge: [['object']], not_null: [['any']], sum: [['array-number']],
  to_array: [['any']], type: [['any']],
};

function typeMatches(value, want) {
  if (want === 'any') return true;
  const [top, sub] = want.split('-');
  if (typeName(value) !== top) return false;
  return !sub || value.every((x) => typeName(x) === sub);
}

function check(name, args) {
  const signature = SIGNATURES[name];
  if (!signature) throw fail(`unknown function ${name}()`);
  signature.forEach((types, i) => {
    if (!types.some((t) => typeMatches(args[i], t))) {
      throw fail(`TypeError: ${name}() expected argument ${i + 1} to be type ${types.join(',')} but received type ${typeName(args[i])} instead.`);
    }
  });
}

const FUNCTIONS = {
  abs: ([n]) => Math.abs(n),
  ceil: ([n]) => Math.ceil(n),
  floor: ([n]) => Math.floor(n),
  contains: ([subject, search]) => subject.indexOf(search) >= 0,
  ends_with: ([text, suffix]) => text.endsWith(suffix),
  starts_with: ([text, prefix]) => text.startsWith(prefix),
  join: ([separator, list]) => list.join(separator),
  keys: ([object]) => Object.keys(object),
  values: ([object]) => Object.values(object),
  length: ([v]) => (isObject(v) ? Object.keys(v).length : v.length),
  map: ([ref, list]) => list.map((x) => visit(ref.node, x)),
  merge: (objects) => {
    const merged = {};
    for (const object of objects) {
      if (!isObject(object)) throw fail(`TypeError: merge() takes objects, not ${typeName(object)}`);
      for (const [key, value] of Object.entries(object)) put(merged, key, value);
    }
    return merged;
  },
  not_null: (values) => values.find((v) => v !== null) ?? null,
  sum: ([list]) => list.reduce((total, n) => total + n, 0),
  to_array: ([v]) => (isArray(v) ? v : [v]),
  type: ([v]) => (typeName(v) === 'unknown' ? null : typeName(v)), // no JSON type: null, as npm and Python give
};

function cap(length, value, step) {
  if (value < 0) { value += length; if (value < 0) value = step < 0 ? -1 : 0; } else if (value >= length) value = step < 0 ? length - 1 : length;
  return value;
}

function slice(list, [start, stop, step]) {
  step = step ?? 1;
  const down = step < 0;
  const from = start === null ? (down ? list.length - 1 : 0) : cap(list.length, start, step);
  const to = stop === null ? (down ? -1 : list.length) : cap(list.length, stop, step);
  const out = [];
  if (down) for (let i = from; i > to; i += step) out.push(list[i]);
  else for (let i = from; i < to; i += step) out.push(list[i]);
  return out;
}

function project(base, right) {
  const out = [];
  for (const x of base) { const v = visit(right, x); if (v !== null) out.push(v); }
  return out;
}

const ORDER = { LT: (a, b) => a < b, LTE: (a, b) => a <= b, GT: (a, b) => a > b, GTE: (a, b) => a >= b };

// The value of `node` (npm's parse tree) on `value`.
export function visit(node, value) {
  const [first, second, third] = node.children || [];
  switch (node.type) {
    case 'Field': return isObject(value) ? own(value, node.name) ?? null : null;
    // the right side runs on a null left side too: `a.to_array(@)` on {} is [null]
    case 'Subexpression': case 'IndexExpression': case 'Pipe': return visit(second, visit(first, value));
    case 'Index': {
      if (!isArray(value)) return null;
      const i = node.value < 0 ? value.length + node.value : node.value;
      return value[i] ?? null;
    }
    case 'Slice': return isArray(value) ? slice(value, node.children) : null;
    case 'Projection': { const base = visit(first, value); return isArray(base) ? project(base, second) : null; }
    case 'ValueProjection': { const base = visit(first, value); return isObject(base) ? project(Object.values(base), second) : null; }
    case 'FilterProjection': {
      const base = visit(first, value);
      return isArray(base) ? project(base.filter((x) => !isFalse(visit(third, x))), second) : null;
    }
    case 'Comparator': {
      const [a, b] = [visit(first, value), visit(second, value)];
      if (node.name === 'EQ') return sameValue(a, b);
      if (node.name === 'NE') return !sameValue(a, b);
      return ORDER[node.name](a, b);
    }
    case 'Flatten': {
      const base = visit(first, value);
      return isArray(base) ? base.flatMap((x) => (isArray(x) ? x : [x])) : null;
    }
    case 'Identity': case 'Current': return value;
    case 'MultiSelectList': return value === null ? null : node.children.map((c) => visit(c, value));
    case 'MultiSelectHash': {
      if (value === null) return null;
      const out = {};
      for (const pair of node.children) put(out, pair.name, visit(pair.value, value));
      return out;
    }
    case 'OrExpression': { const left = visit(first, value); return isFalse(left) ? visit(second, value) : left; }
    case 'AndExpression': { const left = visit(first, value); return isFalse(left) ? left : visit(second, value); }
    case 'NotExpression': return isFalse(visit(first, value));
    case 'Literal': return node.value;
    case 'Function': {
      const args = node.children.map((c) => (c.type === 'ExpressionReference' ? { [EXPREF]: true, node: c.children[0] } : visit(c, value)));
      check(node.name, args);
      return FUNCTIONS[node.name](args);
    }
    default: throw fail(`unknown node type ${node.type}`);
  }
}
