// Grammar `pythonic` (specs/README.md §1b.9): Python call lists (or call lines) with literal
// keyword arguments, parsed and never evaluated. Two levels: the list's structure (names,
// balanced brackets, closed strings) decides whether the block holds calls at all; each call's
// arguments are then read as literals, a call leaving the literal subset being `not-a-literal`.
import { call, UNFINISHED } from './common.js';
import { put } from '../json.js';

class LiteralError extends Error {}
const IDENT = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*/uy;
const NUMBER = /0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?/y;
const STRING_START = /([A-Za-z]{0,2})('''|"""|'|")/y;
const STRING_REST = {
  "'": /[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*'/y, '"': /[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"/y,
  "'''": /[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*'''/y, '"""': /[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*"""/y,
};
const CONSTANTS = { True: true, False: false, None: null };
const at = (re, text, pos) => { re.lastIndex = pos; return re.exec(text); };
const PY_BLANK = /\s/u;
const pySkip = (t, i) => { while (i < t.length && (PY_BLANK.test(t[i]) || '\x1c\x1d\x1e\x1f\x85'.includes(t[i]))) i++; return i; };

function pyNumber(token) {
  const based = /^0[xXoObB]/.test(token);
  const body = based ? token.slice(2) : token;
  if (/__|_$/.test(body) || (!based && /^_|_\.|\._|_[eE]|[eE][+-]?_/.test(body))) throw new LiteralError('bad underscores');
  const clean = body.replace(/_/g, '');
  if (based) {
    if (!clean) throw new LiteralError('no digits');
    return Number.parseInt(clean, { x: 16, o: 8, b: 2 }[token[1].toLowerCase()]);
  }
  if (/[.eE]/.test(clean)) {
    const value = Number(clean);
    if (!Number.isFinite(value)) throw new LiteralError('not a finite number');
    return value;
  }
  if (/^0+[1-9]/.test(clean)) throw new LiteralError('leading zeros');
  return Number(clean);
}

function pyString(body, raw) {
  if (raw) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') { out += c; continue; }
    const e = body[++i];
    const simple = { '\n': '', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
    if (e in simple) { out += simple[e]; continue; }
    if (/[0-7]/.test(e)) { const m = /^[0-7]{1,3}/.exec(body.slice(i)); out += String.fromCodePoint(parseInt(m[0], 8)); i += m[0].length - 1; continue; }
    const width = { x: 2, u: 4, U: 8 }[e];
    if (width) {
      const hex = body.slice(i + 1, i + 1 + width);
      if (hex.length !== width || !/^[0-9a-fA-F]+$/.test(hex) || parseInt(hex, 16) > 0x10ffff) throw new LiteralError('bad escape');
      out += String.fromCodePoint(parseInt(hex, 16)); i += width; continue;
    }
    if (e === 'N') throw new LiteralError('\\N{} escapes are not portable');
    out += `\\${e}`;
  }
  return out;
}

// A call's keyword arguments, `key=literal, …`, filling text (the inside of its parentheses).
function keywords(text, constants) {
  const expect = (p, ch) => { if (text[p] !== ch) throw new LiteralError(`expected ${ch}`); return p + 1; };
  const strings = (p) => {
    const parts = [];
    for (;;) {
      const start = at(STRING_START, text, p);
      if (!start) return [parts.join(''), p];
      const [, prefix, quote] = start;
      if (!['', 'r', 'u'].includes(prefix.toLowerCase())) throw new LiteralError('not a plain string');
      const rest = at(STRING_REST[quote], text, STRING_START.lastIndex);
      if (!rest) throw new LiteralError('unterminated string');
      parts.push(pyString(rest[0].slice(0, -quote.length), prefix.toLowerCase() === 'r'));
      p = pySkip(text, STRING_REST[quote].lastIndex);
    }
  };
  const number = (p) => { const m = at(NUMBER, text, p); if (!m) throw new LiteralError('expected a number'); return [pyNumber(m[0]), p + m[0].length]; };
  const value = (p, depth) => {
    if (depth > 64) throw new LiteralError('nested too deeply');
    p = pySkip(text, p);
    const c = text[p];
    let result;
    if (c === '[' || c === '(') result = sequence(p, depth);
    else if (c === '{') result = mapping(p, depth);
    else if (c === '-' || c === '+') { const [n, e] = number(pySkip(text, p + 1)); result = [c === '-' ? -n : n, e]; }
    else if (/[0-9]/.test(c || '') || (c === '.' && /[0-9]/.test(text[p + 1] || ''))) result = number(p);
    else if (at(STRING_START, text, p)) result = strings(p);
    else {
      const word = at(IDENT, text, p);
      if (!word || !Object.hasOwn(constants, word[0])) throw new LiteralError('expected a literal');
      result = [constants[word[0]], p + word[0].length];
    }
    return [result[0], pySkip(text, result[1])];
  };
  const sequence = (p, depth) => {
    const closing = text[p] === '[' ? ']' : ')';
    const items = []; let comma = false; p++;
    for (;;) {
      p = pySkip(text, p);
      if (text[p] === closing) return [closing === ')' && items.length === 1 && !comma ? items[0] : items, p + 1];
      if (items.length) { p = pySkip(text, expect(p, ',')); comma = true; if (text[p] === closing) return [items, p + 1]; }
      const [item, e] = value(p, depth + 1); items.push(item); p = e;
    }
  };
  const mapping = (p, depth) => {
    const result = {}; let first = true; p++;
    for (;;) {
      p = pySkip(text, p);
      if (text[p] === '}') return [result, p + 1];
      if (!first) { p = pySkip(text, expect(p, ',')); if (text[p] === '}') return [result, p + 1]; }
      first = false;
      const [key, e] = value(p, depth + 1);
      if (typeof key !== 'string') throw new LiteralError('dict keys must be strings');
      const [v, e2] = value(expect(e, ':'), depth + 1); put(result, key, v); p = e2;
    }
  };
  const args = {}; let p = pySkip(text, 0);
  while (p < text.length) {
    if (Object.keys(args).length) { p = pySkip(text, expect(p, ',')); if (p === text.length) break; }
    const key = at(IDENT, text, p);
    if (!key || Object.hasOwn(CONSTANTS, key[0])) throw new LiteralError('expected a keyword argument');
    if (Object.hasOwn(args, key[0])) throw new LiteralError('keyword argument repeated');
    const [v, e] = value(expect(pySkip(text, p + key[0].length), '='), 1); put(args, key[0], v); p = e;
  }
  return args;
}

const NAME = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*(?:\.[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)*/uy;
const PAIRS = { '(': ')', '[': ']', '{': '}' };
// The structure breaks; `atEnd` when the text ended where more was needed (a list cut off).
class Broken extends Error { constructor(message, atEnd = false) { super(message); this.atEnd = atEnd; } }

// The end of the string token whose quote is at i (a prefix is read as plain characters).
function skipString(text, i) {
  const quote = text.startsWith(text[i].repeat(3), i) ? text[i].repeat(3) : text[i];
  for (let j = i + quote.length; j < text.length; j++) {
    if (text[j] === '\\') { j++; continue; }
    if (quote.length === 1 && text[j] === '\n') break;
    if (text.startsWith(quote, j)) return j + quote.length;
  }
  // cut off, unless a one-line string meets a line break first
  throw new Broken('unterminated string', quote.length === 3 || text.indexOf('\n', i) === -1);
}

// One call's structure at pos: [name, arguments start, arguments end, end after ')'].
function callAt(text, pos) {
  const name = at(NAME, text, pos);
  if (!name) throw new Broken('no call name');
  let i = pySkip(text, pos + name[0].length);
  if (text[i] !== '(') throw new Broken('no "(" after the name');
  const start = i + 1; const stack = [')'];
  for (i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") { i = skipString(text, i) - 1; continue; }
    if (PAIRS[c]) stack.push(PAIRS[c]);
    else if (')]}'.includes(c)) {
      if (stack.pop() !== c) throw new Broken('mismatched brackets');
      if (!stack.length) return [name[0], start, i, i + 1];
    }
  }
  throw new Broken('unclosed call', true);
}

// The calls of a list (or lines) the text ends inside (§1b.9): [calls, unfinished], the last of
// them [name, null] when the text ends inside its parentheses; null when the structure breaks
// before the text's end.
function cutCalls(text, pos, lines) {
  let i = pySkip(text, pos);
  if (!lines) { if (text[i] !== '[') return null; i = pySkip(text, i + 1); }
  const calls = [];
  for (;;) {
    if (i >= text.length) return [calls, false];
    const name = at(NAME, text, i);
    if (!name) return null;
    const opened = pySkip(text, i + name[0].length);
    if (opened >= text.length) return [calls, false]; // the name itself may be cut
    if (text[opened] !== '(') return null;
    let c;
    try { c = callAt(text, i); } catch (e) {
      if (!(e instanceof Broken)) throw e;
      if (!e.atEnd) return null;
      calls.push([name[0], null]);
      return [calls, true];
    }
    calls.push(c);
    if (lines) {
      let stop = c[3];
      while (stop < text.length && ' \t'.includes(text[stop])) stop++;
      if (stop < text.length && !'\r\n'.includes(text[stop])) return null;
      i = pySkip(text, stop);
      continue;
    }
    const after = pySkip(text, c[3]);
    if (after >= text.length) return [calls, false];
    if (text[after] !== ',') return null; // ']': the list closed, whole; anything else: broken
    i = pySkip(text, after + 1);
    if (text[i] === ']') return null;
  }
}

function callList(text, pos, layout) {
  const calls = [];
  if (layout === 'lines') { // each call alone on its line; the calls end before a line that is not one
    for (;;) {
      let c;
      try { c = callAt(text, pos); } catch (e) { if (e instanceof Broken && calls.length) return [calls, calls.at(-1)[3]]; throw e; }
      const next = pySkip(text, c[3]);
      const alone = next === text.length || text.slice(c[3], next).includes('\n');
      if (!alone) { if (!calls.length) throw new Broken('text after the call on its line'); return [calls, calls.at(-1)[3]]; }
      calls.push(c);
      if (next === text.length) return [calls, c[3]];
      pos = next;
    }
  }
  if (text[pos] !== '[') throw new Broken('no list');
  pos++;
  for (;;) {
    pos = pySkip(text, pos);
    if (text[pos] === ']') { if (!calls.length) throw new Broken('an empty list'); return [calls, pos + 1]; }
    if (calls.length) {
      if (text[pos] !== ',') throw new Broken('expected ","');
      pos = pySkip(text, pos + 1);
      if (text[pos] === ']') return [calls, pos + 1];
    }
    calls.push(callAt(text, pos)); pos = calls.at(-1)[3];
  }
}

export function pythonicGrammar(p) {
  const constants = p.constants === 'python-and-json' ? { ...CONSTANTS, true: true, false: false, null: null } : CONSTANTS;
  const lines = (p.layout || 'list') === 'lines';
  const convert = (chunk, found) => found.map(([name, start, stop]) => {
    if (start === null) return call(name, {}, '', UNFINISHED);
    try { return call(name, keywords(chunk.slice(start, stop), constants), ''); } catch (e) {
      if (e instanceof LiteralError) return call(name, {}, '', 'not-a-literal');
      throw e;
    }
  });
  const grammar = (chunk, fill) => {
    const start = pySkip(chunk, 0);
    let calls = null; let end = -1;
    try { [calls, end] = callList(chunk, start, lines ? 'lines' : 'list'); } catch (e) { if (!(e instanceof Broken)) throw e; }
    if (calls && lines) { // a last line that is a call the text ends inside
      const tail = cutCalls(chunk, end, true);
      if (tail && tail[1]) return { calls: convert(chunk, [...calls, ...tail[0]]), end: chunk.length, unfinished: true };
    }
    if (calls && !(fill && pySkip(chunk, end) !== chunk.length)) return { calls: convert(chunk, calls), end };
    if (calls && !lines) return null;
    const cut = cutCalls(chunk, start, lines);
    if (!cut || (lines && !cut[1])) return null; // lines: only a call written up to its '(' shows a cut
    return { calls: convert(chunk, cut[0]), end: chunk.length, unfinished: true };
  };
  // Whether a call list ('['), or with layout lines a call (a name and its '('), starts chunk.
  grammar.startsValue = (chunk) => {
    const i = pySkip(chunk, 0);
    if (!lines) return chunk[i] === '[';
    const name = at(NAME, chunk, i);
    return !!name && chunk[pySkip(chunk, i + name[0].length)] === '(';
  };
  return grammar;
}
