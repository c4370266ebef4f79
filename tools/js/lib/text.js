// Tool calls inside model text: the scan of specs/README.md §1b.1 and its four grammars
// (§1b.2–1b.5), on a text spec read with the strict YAML reader.
import { readYaml } from './yaml.js';
import { compileExpression } from './expression.js';
import { scanAt, decodeArguments, isObject } from './json.js';

// Blanks where names and values are trimmed (§1b.1).
const BLANK = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const isBlank = (c) => c !== undefined && BLANK.test(c);
function strip(s) {
  let a = 0; let b = s.length;
  while (a < b && isBlank(s[a])) a++;
  while (b > a && isBlank(s[b - 1])) b--;
  return s.slice(a, b);
}
const skipBlanks = (s, i) => { while (i < s.length && isBlank(s[i])) i++; return i; };
const skipJson = (s, i) => { while (i < s.length && ' \t\n\r'.includes(s[i])) i++; return i; };
const UNFINISHED = 'call-unfinished';
const FORBIDDEN = new Set('<>[]{}()"\'`,;=\\');
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

// Rule 6 of §1b: a name read from free text.
function plausibleName(name) {
  const chars = [...name];
  return chars.length >= 1 && chars.length <= 256 && chars.every((c) => !isBlank(c) && !FORBIDDEN.has(c) && !UNPRINTABLE.test(c));
}

const call = (name, args, id, code = null) => {
  const c = { name, arguments: args, id, synthetic: false, arguments_undecodable: code !== null };
  if (code !== null) c.arguments_error_code = code;
  return c;
};
const decoded = (name, raw, id) => {
  const d = decodeArguments(raw);
  return call(name, structuredClone(d.arguments), id, d.code);
};

// earliest(text, markers, pos): [position, length], the longest at a tie; [-1, 0] for none.
function earliest(text, markers, pos) {
  let best = -1; let length = 0;
  for (const m of markers) {
    const at = text.indexOf(m, pos);
    if (at !== -1 && (best === -1 || at < best || (at === best && m.length > length))) { best = at; length = m.length; }
  }
  return [best, length];
}

// --- json (§1b.2)
function jsonGrammar(p) {
  const shape = p.shape || 'object';
  const e = (key, fallback) => (p[key] ?? fallback) === undefined ? null : compileExpression(p[key] ?? fallback);
  const [when, name, args, id] = [e('when'), e('name', 'name'), e('arguments', 'arguments'), e('id')];
  const one = (item) => {
    if (!isObject(item)) return null;
    try {
      if (when && when.evaluate(item) !== true) return null;
      const n = name.evaluate(item); const raw = args.evaluate(item); const i = id ? id.evaluate(item) : '';
      if (typeof n !== 'string' || !n) return null;
      return decoded(n, raw, typeof i === 'string' ? i : '');
    } catch { return null; }
  };
  return (chunk, fill) => {
    const values = []; let end = 0;
    try { const [v, e2] = scanAt(chunk, skipJson(chunk, 0)); values.push(v); end = e2; } catch { return null; }
    while (p.separator) {
      const at = skipJson(chunk, end);
      if (!chunk.startsWith(p.separator, at)) break;
      try { const [v, e2] = scanAt(chunk, skipJson(chunk, at + p.separator.length)); values.push(v); end = e2; } catch { break; }
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

// --- head-json (§1b.3)
function headGrammar(p) {
  return (chunk, fill, cut) => {
    let best = null;
    for (const m of p.head_end || []) { const at = chunk.indexOf(m); if (at !== -1 && (!best || at < best[0])) best = [at, at + m.length]; }
    for (const m of p.arguments_start || []) { const at = chunk.indexOf(m); if (at !== -1 && (!best || at < best[0])) best = [at, at]; }
    if (!best) return null;
    const head = strip(chunk.slice(0, best[0]));
    let name = head; let id = p.id === 'head' ? head : '';
    if (p.id_marker && head.includes(p.id_marker)) {
      const at = head.indexOf(p.id_marker);
      name = strip(head.slice(0, at)); id = strip(head.slice(at + p.id_marker.length));
    }
    if (p.name_prefix && name.startsWith(p.name_prefix)) name = strip(name.slice(p.name_prefix.length));
    if (p.index_suffix) {
      const at = name.lastIndexOf(p.index_suffix);
      if (at === -1 || !/^[0-9]+$/.test(name.slice(at + p.index_suffix.length))) return null;
      name = name.slice(0, at);
    }
    if (!plausibleName(name)) return null;
    let start = best[1]; let end = chunk.length;
    if (!fill) {
      const at = skipJson(chunk, start);
      try { const [, e2] = scanAt(chunk, at); start = at; end = e2; } catch { /* the rest is the arguments */ }
    }
    let raw = strip(chunk.slice(start, end));
    if (p.arguments_prefix && raw.startsWith(p.arguments_prefix)) raw = strip(raw.slice(p.arguments_prefix.length));
    if (p.arguments_suffix && raw.endsWith(p.arguments_suffix)) raw = strip(raw.slice(0, raw.length - p.arguments_suffix.length));
    if (raw === '' && cut && end === chunk.length) return { calls: [call(name, {}, id, UNFINISHED)], end };
    return { calls: [decoded(name, raw, id)], end };
  };
}

// --- xml-parameters (§1b.4)
class Fault extends Error { constructor(code) { super(code); this.code = code; } }
function xmlGrammar(p) {
  const P = p.parameter; const F = p.function;
  const value = (raw) => {
    if (p.value_trim === 'newline') {
      if (raw.startsWith('\n')) raw = raw.slice(1);
      if (raw.endsWith('\n')) raw = raw.slice(0, -1);
    } else raw = strip(raw);
    if ((p.values || 'json-or-string') === 'json-or-string' && raw) {
      try { const [v, end] = scanAt(raw, 0); if (end === raw.length) return v; } catch { /* a string */ }
    }
    return raw;
  };
  const parameters = (chunk, pos, end) => {
    const args = {};
    for (;;) {
      while (pos < end && isBlank(chunk[pos])) pos++;
      if (pos >= end) return args;
      if (!chunk.startsWith(P.open, pos)) throw new Fault('text-between-parameters');
      const keyAt = pos + P.open.length;
      const stop = chunk.indexOf(P.name_end, keyAt);
      if (stop === -1 || stop + P.name_end.length > end) throw new Fault('unclosed-parameter-name');
      const key = strip(chunk.slice(keyAt, stop));
      if (!key) throw new Fault('empty-parameter-name');
      pos = stop + P.name_end.length;
      if (P.value_open) {
        while (pos < end && isBlank(chunk[pos])) pos++;
        if (!chunk.startsWith(P.value_open, pos)) throw new Fault('missing-value-tag');
        pos += P.value_open.length;
      }
      const closeAt = chunk.indexOf(P.close, pos); const nextAt = chunk.indexOf(P.open, pos);
      let raw;
      if (closeAt !== -1 && closeAt < end && (nextAt === -1 || closeAt < nextAt)) { raw = chunk.slice(pos, closeAt); pos = closeAt + P.close.length; }
      else { const stop2 = nextAt !== -1 && nextAt < end ? nextAt : end; raw = chunk.slice(pos, stop2); pos = stop2; }
      args[key] = value(raw);
    }
  };
  const one = (name, chunk, start, end, unfinished) => {
    if (unfinished) return call(name, {}, '', UNFINISHED);
    try { return call(name, parameters(chunk, start, end), ''); } catch (f) { if (f instanceof Fault) return call(name, {}, '', f.code); throw f; }
  };
  return (chunk, fill, cut) => {
    const calls = [];
    if (!F) {
      let [stop] = earliest(chunk, p.name_end, 0);
      if (stop === -1) stop = chunk.length;
      const name = strip(chunk.slice(0, stop));
      if (!plausibleName(name)) return null;
      calls.push(one(name, chunk, stop, chunk.length, cut));
    } else {
      let pos = 0; const end = chunk.length;
      for (;;) {
        while (pos < end && isBlank(chunk[pos])) pos++;
        if (pos === end) break;
        if (!chunk.startsWith(F.open, pos)) return null;
        const nameAt = pos + F.open.length;
        const stop = chunk.indexOf(F.name_end, nameAt);
        if (stop === -1) return null;
        const name = strip(chunk.slice(nameAt, stop));
        if (!plausibleName(name)) return null;
        const body = stop + F.name_end.length;
        const closeAt = chunk.indexOf(F.close, body); const nextAt = chunk.indexOf(F.open, body);
        let bodyEnd; let unfinished;
        if (closeAt !== -1 && (nextAt === -1 || closeAt < nextAt)) { bodyEnd = closeAt; pos = closeAt + F.close.length; unfinished = false; }
        else { bodyEnd = nextAt !== -1 ? nextAt : end; pos = bodyEnd; unfinished = cut && bodyEnd === end; }
        calls.push(one(name, chunk, body, bodyEnd, unfinished));
      }
    }
    return calls.length ? { calls, end: chunk.length } : null;
  };
}

// --- pythonic (§1b.5)
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

function readCallList(text, pos) {
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
  const value = (p, depth) => {
    if (depth > 64) throw new LiteralError('nested too deeply');
    p = pySkip(text, p);
    const c = text[p];
    if (c === '[' || c === '(') return sequence(p, depth);
    if (c === '{') return mapping(p, depth);
    if (c === '-' || c === '+') { const [n, e] = number(pySkip(text, p + 1)); return [c === '-' ? -n : n, e]; }
    if (/[0-9]/.test(c || '') || (c === '.' && /[0-9]/.test(text[p + 1] || ''))) return number(p);
    if (at(STRING_START, text, p)) return strings(p);
    const word = at(IDENT, text, p);
    if (word && word[0] in CONSTANTS) return [CONSTANTS[word[0]], p + word[0].length];
    throw new LiteralError('expected a literal');
  };
  const number = (p) => { const m = at(NUMBER, text, p); if (!m) throw new LiteralError('expected a number'); return [pyNumber(m[0]), p + m[0].length]; };
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
      const [v, e2] = value(expect(e, ':'), depth + 1); result[key] = v; p = e2;
    }
  };
  const oneCall = (p) => {
    const m = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*(?:\.[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)*/uy;
    const name = at(m, text, p);
    if (!name) throw new LiteralError('expected a function name');
    p = expect(p + name[0].length, '(');
    const args = {};
    for (;;) {
      p = pySkip(text, p);
      if (text[p] === ')') return [[name[0], args], p + 1];
      if (Object.keys(args).length) { p = pySkip(text, expect(p, ',')); if (text[p] === ')') return [[name[0], args], p + 1]; }
      const key = at(IDENT, text, p);
      if (!key || key[0] in CONSTANTS) throw new LiteralError('expected a keyword argument');
      if (Object.hasOwn(args, key[0])) throw new LiteralError('keyword argument repeated');
      const [v, e] = value(expect(p + key[0].length, '='), 1); args[key[0]] = v; p = e;
    }
  };
  pos = expect(pos, '[');
  const calls = [];
  for (;;) {
    pos = pySkip(text, pos);
    if (text[pos] === ']') { if (!calls.length) throw new LiteralError('an empty list holds no call'); return [calls, pos + 1]; }
    if (calls.length) { pos = pySkip(text, expect(pos, ',')); if (text[pos] === ']') return [calls, pos + 1]; }
    const [c, e] = oneCall(pos); calls.push(c); pos = e;
  }
}

function pythonicGrammar() {
  return (chunk, fill) => {
    let calls; let end;
    try { [calls, end] = readCallList(chunk, skipBlanks(chunk, 0)); } catch (e) { if (e instanceof LiteralError) return null; throw e; }
    if (fill && strip(chunk.slice(end))) return null;
    return { calls: calls.map(([name, args]) => call(name, args, '')), end };
  };
}

const GRAMMARS = { json: jsonGrammar, 'head-json': headGrammar, 'xml-parameters': xmlGrammar, pythonic: pythonicGrammar };

export class NotImplemented extends Error {}
const IMPLEMENTED = {
  spec: ['kind', 'spec_version', 'format', 'title', 'doc_ref', 'description', 'models', 'aliases', 'params', 'section', 'block', 'payload'],
  block: ['open', 'close', 'text_start'],
  json: ['grammar', 'shape', 'separator', 'when', 'name', 'arguments', 'id'],
  'head-json': ['grammar', 'head_end', 'arguments_start', 'name_prefix', 'index_suffix', 'id_marker', 'id', 'arguments_prefix', 'arguments_suffix'],
  'xml-parameters': ['grammar', 'function', 'name_end', 'parameter', 'value_trim', 'values'],
  pythonic: ['grammar'],
};
const unknownKeys = (object, known) => Object.keys(object || {}).filter((k) => !known.includes(k) && !k.startsWith('x-'));

// A scanner for one text spec with the caller's parameters.
export function textScanner(specText, params = {}) {
  const { data, problems } = readYaml(specText, 'text.yaml');
  if (problems.length) throw new Error(`text spec does not load: ${problems[0].message}`);
  const extra = [...unknownKeys(data, IMPLEMENTED.spec), ...unknownKeys(data.block, IMPLEMENTED.block),
    ...(data.payload ? [] : ['(no payload)']), ...(data.payload || []).flatMap((p) => (IMPLEMENTED[p.grammar] ? unknownKeys(p, IMPLEMENTED[p.grammar]) : [p.grammar]))];
  if (extra.length) throw new NotImplemented(`text spec keys ${extra.join(', ')}`);
  const values = Object.fromEntries(Object.entries(data.params || {}).map(([k, v]) => [k, v.default]));
  Object.assign(values, params);
  for (const [name, value] of Object.entries(params)) {
    const pattern = data.params?.[name]?.pattern;
    if (pattern && !new RegExp(pattern, 'u').test(value)) throw new Error(`parameter ${name} breaks its pattern`);
  }
  const fill = (v) => (typeof v === 'string' ? v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n) => values[n])
    : Array.isArray(v) ? v.map(fill) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)])) : v);
  const block = fill(data.block);
  const section = data.section ? fill(data.section) : null;
  const payloads = data.payload.map((p) => {
    const literal = p.grammar === 'json' ? p : fill(p); // json selectors are expressions, not markers
    return GRAMMARS[p.grammar](literal);
  });
  return (text) => scan(text, { opens: block.open, close: block.close ?? null, textStart: !!block.text_start, section, payloads });
}

function scan(text, s) {
  const kept = []; const calls = [];
  const parse = (start, end, fill, cut) => {
    const chunk = text.slice(start, end);
    for (const grammar of s.payloads) {
      const parsed = grammar(chunk, fill, cut);
      if (parsed && parsed.calls.length) return { calls: parsed.calls, end: start + parsed.end };
    }
    return null;
  };
  const blocks = (pos, end, keep, found) => {
    let splitUntil = -1;
    while (pos < end) {
      const [opened, length] = earliest(text, s.opens, pos);
      if (opened === -1 || opened >= end) break;
      if (opened > pos) keep.push([pos, opened]);
      const body = opened + length;
      const [following] = earliest(text, s.opens, body);
      const nextOpen = following !== -1 && following < end ? following : end;
      if (s.close === null) {
        const parsed = parse(body, nextOpen, false, nextOpen === text.length);
        if (!parsed) { keep.push([opened, nextOpen]); pos = nextOpen; } else { found.push(...parsed.calls); pos = parsed.end; }
        continue;
      }
      const closeAt = text.indexOf(s.close, body);
      let closed = closeAt !== -1 && closeAt + s.close.length <= end;
      let limit = closed ? closeAt : end;
      if (opened < splitUntil && nextOpen < limit) { limit = nextOpen; closed = false; }
      const blockEnd = closed ? limit + s.close.length : limit;
      const parsed = parse(body, limit, true, !closed);
      const splittable = opened >= splitUntil && nextOpen < limit;
      if (parsed && !(splittable && parsed.calls.some((c) => c.arguments_undecodable))) { found.push(...parsed.calls); pos = blockEnd; }
      else if (splittable) { splitUntil = limit; pos = opened; }
      else { keep.push([opened, blockEnd]); pos = blockEnd; }
    }
    if (pos < end) keep.push([pos, end]);
  };
  if (!s.section) {
    let start = 0;
    const first = skipBlanks(text, 0);
    if (s.textStart && first !== text.length) {
      const [hit] = earliest(text, s.opens, first);
      if (hit !== first) {
        const limit = hit !== -1 ? hit : text.length;
        const parsed = parse(first, limit, false, limit === text.length);
        if (parsed) { calls.push(...parsed.calls); start = parsed.end; }
      }
    }
    blocks(start, text.length, kept, calls);
  } else {
    let pos = 0;
    for (;;) {
      const start = text.indexOf(s.section.open, pos);
      if (start === -1) { kept.push([pos, text.length]); break; }
      kept.push([pos, start]);
      const inner = start + s.section.open.length;
      const closeAt = text.indexOf(s.section.close, inner); const nextAt = text.indexOf(s.section.open, inner);
      let innerEnd; let after;
      if (closeAt !== -1 && (nextAt === -1 || closeAt < nextAt)) { innerEnd = closeAt; after = closeAt + s.section.close.length; }
      else { innerEnd = nextAt !== -1 ? nextAt : text.length; after = innerEnd; }
      const keep = []; const found = [];
      blocks(inner, innerEnd, keep, found);
      if (found.length) { calls.push(...found); kept.push(...keep.filter(([a, b]) => strip(text.slice(a, b)))); }
      else kept.push([start, after]);
      pos = after;
    }
  }
  return { clean_text: strip(kept.map(([a, b]) => text.slice(a, b)).join('')), calls };
}
