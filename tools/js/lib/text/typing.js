// Values typed by a tool's JSON Schema (specs/README.md §1b.4): shared by the XML grammars.
import { classify, loads, own } from '../json.js';
import { strip } from './common.js';

const isMapping = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// The JSON types a schema declares (§1b.4 step 1): its `type`, or those of its anyOf/oneOf branches.
export function declaredTypes(schema) {
  const list = (t) => (typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x) => typeof x === 'string') : []);
  if (!isMapping(schema)) return [];
  if (Object.hasOwn(schema, 'type')) return list(schema.type);
  const branches = (key) => (Array.isArray(own(schema, key)) ? schema[key] : []);
  return [...branches('anyOf'), ...branches('oneOf')].flatMap((b) => (isMapping(b) ? list(own(b, 'type')) : []));
}

const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;
const json = (t) => (classify(t)[0] === 'ok' ? [loads(t)] : null);
const READERS = {
  integer: (t) => (/^-?(0|[1-9][0-9]*)$/.test(t) ? [Number(t)] : null),
  number: (t) => (NUMBER.test(t) && Number.isFinite(Number(t)) ? [Number(t)] : null),
  boolean: (t) => (t === 'true' || t === 'false' ? [t === 'true'] : null),
  null: (t) => (t === 'null' ? [null] : null),
  object: (t) => { const v = json(t); return v && isMapping(v[0]) ? v : null; },
  array: (t) => { const v = json(t); return v && Array.isArray(v[0]) ? v : null; },
};
// The types §1b.4 reads, in its order; a spec's `types:` picks among them.
export const TYPES = Object.keys(READERS);

// A value's text typed by its own schema (§1b.4 steps 2–4); `allowed` limits the types a spec reads.
export function typeText(text, schema, allowed = TYPES) {
  return typeTypes(text, declaredTypes(schema), allowed);
}

// A value's text typed by declared types (§1b.4 steps 2–4: a written type, or a schema's).
export function typeTypes(text, types, allowed = TYPES) {
  if (!types.length || types.includes('string')) return text;
  for (const type of TYPES) {
    if (!types.includes(type) || !allowed.includes(type)) continue;
    const got = READERS[type](strip(text));
    if (got) return got[0];
  }
  return text;
}
