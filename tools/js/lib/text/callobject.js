// Grammar `call-object` (specs/README.md §1b.10): one call in Gemma's object notation,
// PREFIX NAME{key:value, …}, bare keys and delimited strings. Once PREFIX NAME { reads the
// call is known: arguments that do not read are `bad-call-object`, cut off ones `call-unfinished`.
import { classify, loads } from '../json.js';
import { call, Fault, plausibleName, skipBlanks, strip, UNFINISHED } from './common.js';

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const DEPTH = 64; // the arguments' object counts 1
const KEY_STOP = /[:,{}[\]]/;

export function callObjectGrammar(p) {
  const quote = p.string_delimiter; const jsonStrings = p.strings === 'json-or-string';
  return (chunk, fill, cut) => {
    const body = skipBlanks(chunk, 0);
    if (!chunk.startsWith(p.call_prefix, body)) return null;
    const brace = chunk.indexOf('{', body + p.call_prefix.length);
    if (brace === -1) return null;
    const name = strip(chunk.slice(body + p.call_prefix.length, brace));
    if (!plausibleName(name)) return null;
    const n = chunk.length;
    const fail = (i) => { throw new Fault(i >= n && cut ? UNFINISHED : 'bad-call-object'); };
    const blanks = (i) => skipBlanks(chunk, i);
    const string = (i) => { // i is at the opening delimiter
      const close = chunk.indexOf(quote, i + quote.length);
      if (close === -1) fail(n);
      const text = chunk.slice(i + quote.length, close);
      const value = jsonStrings && text && classify(text)[0] === 'ok' ? loads(text) : text;
      return [value, close + quote.length];
    };
    const key = (i) => { // bare: up to the colon, trimmed
      let j = i;
      while (j < n && !KEY_STOP.test(chunk[j]) && !chunk.startsWith(quote, j)) j++;
      const k = strip(chunk.slice(i, j));
      if (!k) fail(j);
      return [k, j];
    };
    const members = (i, close, depth, item) => { // i just after the opening bracket
      if (depth > DEPTH) fail(i);
      i = blanks(i);
      if (chunk[i] === close) return i + 1;
      for (;;) {
        i = item(blanks(i));
        i = blanks(i);
        if (i >= n) fail(i);
        if (chunk[i] === close) return i + 1;
        if (chunk[i] !== ',') fail(i);
        i++;
      }
    };
    const value = (i, depth) => {
      if (i >= n) fail(i);
      if (chunk.startsWith(quote, i)) return string(i);
      if (chunk[i] === '{') { const out = {}; const e = object(i + 1, depth + 1, out); return [out, e]; }
      if (chunk[i] === '[') {
        const out = [];
        const e = members(i + 1, ']', depth + 1, (j) => { const [v, e2] = value(j, depth + 1); out.push(v); return e2; });
        return [out, e];
      }
      for (const [word, v] of [['true', true], ['false', false], ['null', null]]) if (chunk.startsWith(word, i)) return [v, i + word.length];
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(chunk);
      if (!m || !Number.isFinite(Number(m[0]))) fail(i + (m ? m[0].length : 0));
      return [Number(m[0]), i + m[0].length];
    };
    const object = (i, depth, out) => members(i, '}', depth, (j) => {
      const [k, e] = key(j);
      const colon = blanks(e);
      if (chunk[colon] !== ':') fail(colon);
      if (Object.hasOwn(out, k)) fail(j); // a repeated key
      const [v, e2] = value(blanks(colon + 1), depth);
      out[k] = v;
      return e2;
    });
    const args = {}; let end;
    try {
      end = object(brace + 1, 1, args);
      if (fill && blanks(end) !== n) throw new Fault('bad-call-object');
    } catch (f) {
      if (!(f instanceof Fault)) throw f;
      return { calls: [call(name, {}, '', f.code)], end: n };
    }
    return { calls: [call(name, args, '', null)], end };
  };
}
