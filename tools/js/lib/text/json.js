// Grammar `json` (specs/README.md §1b.6): call objects after a marker, one, an array, or
// separator-joined; names and arguments by selector, by `arguments_keys`, or `single_key`.
import { compileExpression } from '../expression.js';
import { scanAt, isObject } from '../json.js';
import { call, decoded, skipJson } from './common.js';

// A number beyond the double range anywhere in the arguments (§1b rule 8).
const infinite = (v) => (typeof v === 'number' ? !Number.isFinite(v)
  : Array.isArray(v) ? v.some(infinite) : isObject(v) ? Object.values(v).some(infinite) : false);

export function jsonGrammar(p) {
  const shape = p.shape || 'object';
  const e = (key, fallback) => ((p[key] ?? fallback) === undefined ? null : compileExpression(p[key] ?? fallback));
  const [when, name, id] = [e('when'), e('name', 'name'), e('id')];
  const args = p.arguments_keys || p.single_key ? null : e('arguments', 'arguments');
  const callKeys = p.call_keys || ['name', 'id', 'type'];
  // [name, raw arguments, code or null] of one call object, or null: not a call object
  const parts = (item) => {
    if (p.single_key) {
      const keys = Object.keys(item);
      return keys.length === 1 && keys[0] ? [keys[0], item[keys[0]], null] : null;
    }
    const n = name.evaluate(item);
    if (typeof n !== 'string' || !n) return null;
    if (args) return [n, args.evaluate(item), null];
    const key = p.arguments_keys.find((k) => Object.hasOwn(item, k));
    if (key !== undefined) return [n, item[key], null];
    return [n, undefined, Object.keys(item).every((k) => callKeys.includes(k)) ? null : 'arguments-key-unknown'];
  };
  const one = (item) => {
    if (!isObject(item)) return null;
    try {
      if (when && when.evaluate(item) !== true) return null;
      const got = parts(item);
      if (!got) return null;
      const i = id && !p.single_key ? id.evaluate(item) : '';
      const ident = typeof i === 'string' ? i : '';
      const [n, raw, code] = got;
      if (code) return call(n, {}, ident, code);
      if (infinite(raw)) return call(n, {}, ident, 'number-out-of-range');
      return decoded(n, raw, ident);
    } catch { return null; }
  };
  const blankSeparator = !!p.separator && skipJson(p.separator, 0) === p.separator.length;
  const value = (chunk, at) => scanAt(chunk, skipJson(chunk, at), true);
  return (chunk, fill) => {
    const values = []; let end = 0;
    try { const [v, e2] = value(chunk, 0); values.push(v); end = e2; } catch { return null; }
    while (p.separator) {
      const at = skipJson(chunk, end);
      let start;
      if (blankSeparator) { // one object per line: the separator lies in the whitespace skipped
        if (!chunk.slice(end, at).includes(p.separator)) break;
        start = at;
      } else if (chunk.startsWith(p.separator, at)) start = at + p.separator.length;
      else break;
      try { const [v, e2] = value(chunk, start); values.push(v); end = e2; } catch { break; }
    }
    if (fill && skipJson(chunk, end) !== chunk.length) return null;
    const calls = [];
    for (const v of values) {
      let items;
      if (isObject(v) && shape !== 'array') items = [v];
      else if (Array.isArray(v) && shape !== 'object' && v.length) items = v;
      else return null;
      for (const item of items) { const c = one(item); if (!c) return null; calls.push(c); }
    }
    return { calls, end };
  };
}
