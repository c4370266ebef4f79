// Grammar `call-object` (specs/README.md §1b.10): one call in Gemma's object notation,
// PREFIX NAME{key:value, …}, bare keys and delimited strings. Once PREFIX NAME { reads the
// call is known: arguments that do not read are `bad-call-object`, and those the end of a cut
// body broke off (the text ended where more was needed) `call-unfinished`.
import { classify, loads, put } from '../json.js';
import { call, plausibleName, skipBlanks, skipJson, strip, UNFINISHED } from './common.js';

const DEPTH = 64; // the arguments' object counts 1
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$/;
const WORD_END = ',}] \t\r\n';
const WORDS = { true: true, false: false, null: null };

// A fault in the arguments; `more` when the text ended where the grammar needed more.
class Fault extends Error { constructor(more = false) { super('bad call object'); this.more = more; } }

export function callObjectGrammar(p) {
  const quote = p.string_delimiter; const jsonStrings = p.strings === 'json-or-string';
  return (chunk, _fill, cut) => { // only blanks may follow the object, fill or not
    const body = skipBlanks(chunk, 0);
    if (!chunk.startsWith(p.call_prefix, body)) return null;
    const brace = chunk.indexOf('{', body + p.call_prefix.length);
    if (brace === -1) return cut ? { calls: [], end: chunk.length, unfinished: true } : null; // the name may be cut
    const name = strip(chunk.slice(body + p.call_prefix.length, brace));
    if (!plausibleName(name)) return null;
    const n = chunk.length;
    const value = (i, depth) => {
      i = skipJson(chunk, i);
      if (i >= n) throw new Fault(true);
      if (chunk.startsWith(quote, i)) {
        const close = chunk.indexOf(quote, i + quote.length);
        if (close === -1) throw new Fault(true);
        const text = chunk.slice(i + quote.length, close);
        return [jsonStrings && text && classify(text)[0] === 'ok' ? loads(text) : text, close + quote.length];
      }
      if (chunk[i] === '{') return object(i + 1, depth + 1);
      if (chunk[i] === '[') return array(i + 1, depth + 1);
      let end = i;
      while (end < n && !WORD_END.includes(chunk[end])) end++;
      const word = chunk.slice(i, end);
      if (Object.hasOwn(WORDS, word)) return [WORDS[word], end];
      if (NUMBER.test(word)) {
        if (!Number.isFinite(Number(word))) throw new Fault();
        return [Number(word), end];
      }
      throw new Fault(end >= n);
    };
    const array = (i, depth) => {
      if (depth > DEPTH) throw new Fault();
      const items = [];
      for (;;) {
        i = skipJson(chunk, i);
        if (i >= n) throw new Fault(true);
        if (chunk[i] === ']') return [items, i + 1];
        if (items.length) { if (chunk[i] !== ',') throw new Fault(); i++; }
        const [item, e] = value(i, depth); items.push(item); i = e;
      }
    };
    const object = (i, depth) => {
      if (depth > DEPTH) throw new Fault();
      const members = {};
      for (;;) {
        i = skipJson(chunk, i);
        if (i >= n) throw new Fault(true);
        if (chunk[i] === '}') return [members, i + 1];
        if (Object.keys(members).length) { if (chunk[i] !== ',') throw new Fault(); i = skipJson(chunk, i + 1); }
        const colon = chunk.indexOf(':', i); // a key is bare: the text up to its colon
        if (colon === -1) throw new Fault(true);
        const key = strip(chunk.slice(i, colon));
        if (!key || /[{}[\],]/.test(key) || key.includes(quote) || Object.hasOwn(members, key)) throw new Fault();
        const [v, e] = value(colon + 1, depth); put(members, key, v); i = e;
      }
    };
    try {
      const [args, end] = object(brace + 1, 1);
      if (strip(chunk.slice(end))) throw new Fault();
      return { calls: [call(name, args, '', null)], end };
    } catch (f) {
      if (!(f instanceof Fault)) throw f;
      return { calls: [call(name, {}, '', f.more && cut ? UNFINISHED : 'bad-call-object')], end: n, unfinished: f.more };
    }
  };
}
