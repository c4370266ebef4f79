// Grammar `json` (specs/README.md §1b.6): call objects after a marker, one, an array, or
// separator-joined; names and arguments by selector, by `arguments_keys`, or `single_key`. A
// value the body ends inside is read for what it wrote whole (§1b.6, §1b.12): the calls before
// the cut, and the call object cut after its name, flagged `call-unfinished`.
import { compileExpression } from '../expression.js';
import { scanAt, classify, isObject, JsonFault, MAX_DEPTH, put } from '../json.js';
import { call, decoded, skipJson, UNFINISHED } from './common.js';

// A number beyond the double range anywhere in the arguments (§1b rule 8).
const infinite = (v) => (typeof v === 'number' ? !Number.isFinite(v)
  : Array.isArray(v) ? v.some(infinite) : isObject(v) ? Object.values(v).some(infinite) : false);
const RAN_OUT = ['unexpected-end', 'unterminated-string'];

// The containers of the JSON value at pos that text ends inside, each with the members read
// whole (§1b.6): { value, open: Set of the containers never closed }, or null.
export function readPartial(text, pos) {
  let i = skipJson(text, pos); const n = text.length;
  if (i >= n || (text[i] !== '{' && text[i] !== '[')) return null;
  const root = text[i] === '{' ? {} : [];
  const stack = [root]; const keys = [null];
  // 0 key or '}', 1 key, 2 ':', 3 value or ']', 4 value, 5 ',' or closer
  let state = text[i] === '{' ? 0 : 3; i++;
  const partial = () => ({ value: root, open: new Set(stack) });
  const add = (container, key, v) => { if (Array.isArray(container)) container.push(v); else put(container, key, v); };
  for (;;) {
    i = skipJson(text, i);
    if (i >= n) return partial();
    const c = text[i]; const top = stack.at(-1);
    if ((state === 0 && c === '}') || (state === 3 && c === ']')) {
      stack.pop(); keys.pop(); i++;
      if (!stack.length) return null; // whole, not cut
      state = 5; continue;
    }
    if (state === 0 || state === 1) {
      if (c !== '"') return null;
      try { const [key, e] = scanAt(text, i); keys[keys.length - 1] = key; i = e; } catch (f) {
        if (f instanceof JsonFault && RAN_OUT.includes(f.code)) return partial();
        return null;
      }
      state = 2; continue;
    }
    if (state === 2) { if (c !== ':') return null; state = 4; i++; continue; }
    if (state === 3 || state === 4) {
      if (c === '[' || c === '{') {
        if (stack.length >= MAX_DEPTH) return null;
        const child = c === '{' ? {} : [];
        add(top, keys.at(-1), child); stack.push(child); keys.push(null);
        state = c === '{' ? 0 : 3; i++; continue;
      }
      const [code, end] = classify(text, i, false);
      if (RAN_OUT.includes(code)) return partial();
      let v = null;
      if (code === 'ok') v = JSON.parse(text.slice(i, end));
      else if (code !== 'number-out-of-range') return null;
      const stop = code === 'ok' ? end : numberEnd(text, i);
      if (stop >= n && '-0123456789'.includes(c)) return partial(); // a number at the end may be cut
      add(top, keys.at(-1), v); state = 5; i = stop; continue;
    }
    if (c === ',') { state = Array.isArray(top) ? 4 : 1; i++; continue; }
    if (c === (Array.isArray(top) ? ']' : '}')) {
      stack.pop(); keys.pop(); i++;
      if (!stack.length) return null;
      continue;
    }
    return null;
  }
}
function numberEnd(text, i) { let j = i + 1; while (j < text.length && '0123456789+-.eE'.includes(text[j])) j++; return j; }

export function jsonGrammar(p) {
  const shape = p.shape || 'object';
  const starts = [...(shape !== 'array' ? ['{'] : []), ...(shape !== 'object' ? ['['] : [])];
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
  // The call an object cut after its name names (when `when` holds on the members read).
  const unfinished = (item) => {
    if (!isObject(item)) return null;
    try {
      if (when && when.evaluate(item) !== true) return null;
      let n;
      if (p.single_key) { const keys = Object.keys(item); if (keys.length !== 1) return null; [n] = keys; }
      else n = name.evaluate(item);
      if (typeof n !== 'string' || !n) return null;
      const i = id && !p.single_key ? id.evaluate(item) : '';
      return call(n, {}, typeof i === 'string' ? i : '', UNFINISHED);
    } catch { return null; }
  };
  const separators = p.separator === undefined ? [] : Array.isArray(p.separator) ? p.separator : [p.separator];
  const blanks = separators.filter((s) => skipJson(s, 0) === s.length);
  const others = separators.filter((s) => skipJson(s, 0) !== s.length);
  // Where the next value starts after one that ended at `end`, or -1 (no separator there).
  const next = (chunk, end) => {
    const at = skipJson(chunk, end);
    const other = others.find((s) => chunk.startsWith(s, at));
    if (other !== undefined) return skipJson(chunk, at + other.length);
    if (blanks.some((s) => chunk.slice(end, at).includes(s))) return at;
    return -1;
  };
  const items = (v) => {
    if (isObject(v) && shape !== 'array') return [v];
    if (Array.isArray(v) && shape !== 'object' && v.length) return v;
    return null;
  };
  const grammar = (chunk, fill) => {
    const values = []; let end = 0; let cutAt = -1;
    const read = (at) => {
      if (!starts.includes(chunk[at])) return false;
      try { const [v, e2] = scanAt(chunk, at, true); values.push(v); end = e2; return true; } catch (f) {
        if (f instanceof JsonFault && RAN_OUT.includes(f.code)) cutAt = at;
        return false;
      }
    };
    if (read(skipJson(chunk, 0))) {
      for (;;) {
        const at = next(chunk, end);
        if (at === -1 || !read(at)) break;
      }
    }
    if (!values.length && cutAt === -1) return null;
    if (cutAt === -1 && fill && skipJson(chunk, end) !== chunk.length) return null;
    const calls = [];
    for (const v of values) {
      const list = items(v);
      if (!list) return null;
      for (const item of list) { const c = one(item); if (!c) return null; calls.push(c); }
    }
    if (cutAt === -1) { // a value of the shape after a separator that did not read: reported (§1b.12)
      const at = fill ? -1 : next(chunk, end);
      return { calls, end, stray: at !== -1 && starts.includes(chunk[at]) ? at : -1 };
    }
    const partial = readPartial(chunk, cutAt);
    if (partial && (Array.isArray(partial.value) ? partial.value.length : Object.keys(partial.value).length)) {
      const list = items(partial.value);
      if (!list) return null;
      for (const item of list) {
        if (partial.open.has(item)) { const c = unfinished(item); if (c) calls.push(c); break; }
        const c = one(item); if (!c) return null; calls.push(c);
      }
    }
    return { calls, end: chunk.length, unfinished: true };
  };
  // Whether a value of the spec's shape starts chunk (blanks aside): the reply's start is then a call region.
  grammar.startsValue = (chunk) => starts.includes(chunk[skipJson(chunk, 0)]);
  // §1b.5 step 2: where the values starting at `start` of the whole reply end, markers ignored.
  grammar.extent = (text, start) => {
    const valueEnd = (at) => {
      if (!starts.includes(text[at])) return -1;
      const [code, e2] = classify(text, at, false);
      return code === 'ok' ? e2 : -1;
    };
    let end = valueEnd(skipJson(text, start));
    if (end === -1) return -1;
    for (;;) {
      const at = next(text, end);
      if (at === -1) return end;
      const after = valueEnd(at);
      if (after === -1) return end;
      end = after;
    }
  };
  return grammar;
}
