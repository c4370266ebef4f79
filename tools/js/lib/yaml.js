// The strict YAML reader of specs/README.md §1.5: one document, no anchors, aliases or
// tags, no duplicate or non-string keys, at most 64 levels, and plain scalars resolved by
// the README's own table (YAML 1.2 core, minus what YAML 1.1 reads otherwise).
import { parseAllDocuments, isMap, isSeq, isScalar, isAlias, isPair, LineCounter } from 'yaml';
import { put } from './json.js';

export const MAX_DEPTH = 64;
const NULL = /^(?:null|Null|NULL|~|)$/;
const BOOL = /^(?:true|True|TRUE|false|False|FALSE)$/;
const INT = /^[-+]?(?:0|[1-9][0-9]*)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const YAML11_BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const DATE = /^\d{4}-\d{1,2}-\d{1,2}(?:[Tt ].*)?$/;
const SEXAGESIMAL = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const NOT_JSON = new Set(['.nan', '.inf', '-.inf', '+.inf']);

export const escapePointer = (token) => String(token).replace(/~/g, '~0').replace(/\//g, '~1');

// [value, refusal]: a plain scalar's value by the README's table.
function plain(text) {
  if (NULL.test(text)) return [null, null];
  if (BOOL.test(text)) return [text.toLowerCase() === 'true', null];
  if (INT.test(text) || (FLOAT.test(text) && /[0-9]/.test(text))) return [Number(text), null];
  if (YAML11_BOOL.test(text) || DATE.test(text) || SEXAGESIMAL.test(text) || NOT_JSON.has(text.toLowerCase())) {
    return [null, `unquoted '${text}' reads differently in YAML 1.1 or is not JSON data; quote it`];
  }
  return [text, null];
}

// { data, values, keys, problems }: values/keys map a JSON pointer to [line, col].
export function readYaml(text, path) {
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, lineCounter: counter });
  const lines = text.split('\n');
  const where = (offset) => {
    const { line, col } = counter.linePos(offset);
    return [line, [...lines[line - 1].slice(0, col - 1)].length + 1]; // columns in code points
  };
  const out = { path, data: null, values: {}, keys: {}, problems: [] };
  const fail = (at, pointer, rule, message) => out.problems.push({ file: path, line: at[0], col: at[1], pointer, rule, message });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error) {
      fail(where(error.pos[0]), '', 'yaml-syntax', error.message.split('\n')[0]);
      return out;
    }
  }
  if (list.length > 1) {
    fail(where(list[1].range[0]), '', 'yaml-documents', 'a spec file holds one YAML document');
    return out;
  }
  const build = (node, pointer, depth) => {
    if (node === null || node === undefined) return null;
    const at = where(propsStart(text, node));
    if (isAlias(node)) { fail(at, pointer, 'yaml-alias', 'aliases are not allowed'); throw new Abort(); }
    if (node.anchor) fail(at, pointer, 'yaml-anchor', `anchor &${node.anchor} is not allowed`);
    if (node.tag) fail(at, pointer, 'yaml-tag', `tag ${node.tag} is not allowed`);
    out.values[pointer] = at;
    if (isScalar(node)) {
      if (node.type !== 'PLAIN') return node.value;
      const [value, refusal] = plain(node.value);
      if (refusal) fail(at, pointer, 'yaml-ambiguous-scalar', refusal);
      return value;
    }
    if (depth >= MAX_DEPTH) { fail(at, pointer, 'yaml-too-deep', `nesting deeper than ${MAX_DEPTH} levels`); throw new Abort(); }
    if (isSeq(node)) return node.items.map((item, i) => build(item, `${pointer}/${i}`, depth + 1));
    const result = {};
    for (const pair of node.items) {
      const keyNode = pair.key;
      const keyAt = keyNode ? where(keyNode.range[0]) : at;
      let name = isScalar(keyNode) ? keyNode.value : null;
      if (!isScalar(keyNode) || (keyNode.type === 'PLAIN' && typeof plain(name)[0] !== 'string')) {
        fail(keyAt, pointer, 'yaml-key', `mapping key ${JSON.stringify(name)} must be a string; quote it`);
        if (!isScalar(keyNode)) continue;
      }
      const child = `${pointer}/${escapePointer(name)}`;
      if (Object.hasOwn(result, name)) {
        fail(keyAt, child, 'yaml-duplicate-key', `duplicate key '${name}'`);
        continue;
      }
      out.keys[child] = keyAt;
      put(result, name, build(pair.value, child, depth + 1));
    }
    return result;
  };
  try {
    out.data = list.length ? build(list[0].contents, '', 0) : null;
  } catch (e) {
    if (!(e instanceof Abort)) throw e;
  }
  return out;
}

class Abort extends Error {}

// Where a node starts, its anchor or tag included (the value's node begins with them).
function propsStart(text, node) {
  let start = node.range[0];
  if (node.anchor) start = Math.min(start, text.lastIndexOf(`&${node.anchor}`, start));
  if (node.tag) {
    let t = text.lastIndexOf('!', start);
    while (t > 0 && !/\s/.test(text[t - 1]) && text[t - 1] !== '&') t--;
    start = Math.min(start, t);
  }
  return start;
}

// The place of pointer (its key when key), else of its nearest present ancestor.
export function locate(doc, pointer, key = false) {
  let probe = pointer;
  for (;;) {
    const table = key ? doc.keys : doc.values;
    if (probe in table) return table[probe];
    if (probe in doc.values) return doc.values[probe];
    if (!probe) return [1, 1];
    probe = probe.slice(0, probe.lastIndexOf('/'));
  }
}
