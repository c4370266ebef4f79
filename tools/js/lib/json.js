// Strict JSON text and its fault codes: specs/README.md §1.4 and §1.4.1, rule by rule.
// JSON.parse does the decoding; the scanner below decides first whether the text decodes
// at all (within the nesting and number limits JSON.parse does not know) and why not.

export const MAX_DEPTH = 512;
const BLANK = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const LITERALS = ['true', 'false', 'null'];
const isDigit = (c) => c >= '0' && c <= '9';
const isHex = (c) => /^[0-9a-fA-F]$/.test(c);

function skip(text, i) {
  while (i < text.length && BLANK.has(text[i])) i++;
  return i;
}

// [code, end]: code '' when the string at i is well formed.
function string(text, i) {
  const n = text.length;
  for (i++; i < n; i++) {
    const c = text[i];
    if (c === '"') return ['', i + 1];
    if (c < ' ') return ['control-character', i];
    if (c === '\\') {
      if (i + 1 >= n) return ['unterminated-string', n];
      const e = text[i + 1];
      if (e === 'u') {
        const digits = text.slice(i + 2, i + 6);
        const hex = [...digits].every(isHex);
        if (digits.length === 4 && hex) { i += 5; continue; }
        return [i + 6 > n && hex ? 'unterminated-string' : 'invalid-escape', i];
      }
      if (!ESCAPES.has(e)) return ['invalid-escape', i];
      i++;
    }
  }
  return ['unterminated-string', n];
}

function digits(text, i) {
  const start = i;
  while (i < text.length && isDigit(text[i])) i++;
  return [i, i > start];
}

function number(text, i, infinite = false) {
  const n = text.length;
  const start = i;
  let ok;
  const missing = (at) => [at >= n ? 'unexpected-end' : 'invalid-number', at];
  if (text[i] === '-') i++;
  if (text[i] === '0') {
    i++;
    if (i < n && isDigit(text[i])) return ['invalid-number', i];
  } else {
    [i, ok] = digits(text, i);
    if (!ok) return missing(i);
  }
  if (text[i] === '.') {
    [i, ok] = digits(text, i + 1);
    if (!ok) return missing(i);
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    [i, ok] = digits(text, i);
    if (!ok) return missing(i);
  }
  if (!infinite && !Number.isFinite(Number(text.slice(start, i)))) return ['number-out-of-range', start];
  return ['', i];
}

function key(text, i) {
  if (i >= text.length) return ['unexpected-end', i];
  if (text[i] !== '"') return ['expected-key', i];
  let code;
  [code, i] = string(text, i);
  if (code) return [code, i];
  i = skip(text, i);
  if (i >= text.length) return ['unexpected-end', i];
  if (text[i] !== ':') return ['expected-colon', i];
  return ['', skip(text, i + 1)];
}

// [code, end]: 'ok' when a value starts at pos (and, with whole, fills the text). With infinite,
// a number beyond the double range reads (as ±Infinity): §1b rule 8 flags the call, not the block.
export function classify(text, pos = 0, whole = true, infinite = false) {
  const n = text.length;
  const stack = [];
  let i = whole ? skip(text, pos) : pos;
  let code;
  for (;;) {
    if (i >= n) return ['unexpected-end', i];
    const c = text[i];
    if (c === '[' || c === '{') {
      if (stack.length >= MAX_DEPTH) return ['nesting-too-deep', i];
      stack.push(c);
      i = skip(text, i + 1);
      if (i < n && text[i] === (c === '[' ? ']' : '}')) { stack.pop(); i++; }
      else if (c === '{') { [code, i] = key(text, i); if (code) return [code, i]; continue; }
      else continue;
    } else if (c === '"') {
      [code, i] = string(text, i); if (code) return [code, i];
    } else if (c === '-' || isDigit(c)) {
      [code, i] = number(text, i, infinite); if (code) return [code, i];
    } else if (/^[A-Za-z]$/.test(c)) {
      const word = LITERALS.find((w) => text.startsWith(w, i));
      if (word) i += word.length;
      else if (LITERALS.some((w) => n - i < w.length && w.startsWith(text.slice(i)))) return ['unexpected-end', n];
      else return ['invalid-literal', i];
    } else return ['expected-value', i];
    // a value ended at i: close containers, or go on to the next member
    for (;;) {
      if (stack.length === 0) {
        const after = skip(text, i);
        return whole && after !== n ? ['trailing-text', after] : ['ok', i];
      }
      i = skip(text, i);
      if (i >= n) return ['unexpected-end', i];
      if (text[i] === (stack.at(-1) === '[' ? ']' : '}')) { stack.pop(); i++; continue; }
      if (text[i] !== ',') return ['expected-delimiter', i];
      i = skip(text, i + 1);
      if (stack.at(-1) === '{') { [code, i] = key(text, i); if (code) return [code, i]; }
      break;
    }
  }
}

export class JsonFault extends Error {
  constructor(code) { super(`not strict JSON: ${code}`); this.code = code; }
}

// The one value text holds, or a JsonFault.
export function loads(text) {
  const [code] = classify(text);
  if (code !== 'ok') throw new JsonFault(code);
  return JSON.parse(text);
}

// One value starting exactly at pos: [value, end]; what follows is free text.
export function scanAt(text, pos, infinite = false) {
  const [code, end] = classify(text, pos, false, infinite);
  if (code !== 'ok') throw new JsonFault(code);
  return [JSON.parse(text.slice(pos, end)), end];
}

// The decoding table of §1.4: { arguments, undecodable, code }.
export function decodeArguments(raw) {
  if (raw === null || raw === undefined || raw === '') return { arguments: {}, undecodable: false, code: null };
  if (isObject(raw)) return { arguments: raw, undecodable: false, code: null };
  if (typeof raw === 'string') {
    try {
      const value = loads(raw);
      if (isObject(value)) return { arguments: value, undecodable: false, code: null };
    } catch (fault) {
      if (!(fault instanceof JsonFault)) throw fault;
      return { arguments: {}, undecodable: true, code: fault.code };
    }
  }
  return { arguments: {}, undecodable: true, code: 'not-an-object' };
}

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// Input is read through own properties only: a reply's `constructor` or `toString` member is
// absent unless it was sent, and one named `__proto__` is a member like any other.
// The value of an own property, or undefined: never one inherited from a prototype.
export const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

// Set a member as an own data property (`__proto__` included): never a prototype change.
export function put(object, key, value) {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  return object;
}
