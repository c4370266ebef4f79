// Grammar `xml-parameters` (specs/README.md §1b.8, rules 10–12 of §1b, typed values §1b.4):
// a call's name (in a function tag, or the block's first line), then one tag pair per parameter.
import { classify, loads, own, put } from '../json.js';
import { call, earliest, Fault, isBlank, plausibleName, skipBlanks, strip, UNFINISHED } from './common.js';
import { declaredTypes, TYPES, typeText, typeTypes } from './typing.js';

const WRITTEN = [...TYPES, 'string']; // the written types that name a JSON type

// quoted_names (rule 11): NAME or "NAME" or 'NAME', then key="value" attributes; with
// nameAttribute the text is attributes only and the name is that attribute's value. Null: unread.
function readTag(text, nameAttribute) {
  const t = strip(text); let i = 0; let name = null;
  if (!t) return null;
  if (!nameAttribute) {
    if (t[0] === '"' || t[0] === "'") {
      const close = t.indexOf(t[0], 1);
      if (close === -1) return null;
      name = t.slice(1, close); i = close + 1;
    } else { while (i < t.length && !isBlank(t[i])) i++; name = t.slice(0, i); }
  }
  const attributes = {}; // key="value" or key='value': the key is the text up to '=', trimmed
  let rest = strip(t.slice(i));
  while (rest) {
    const equals = rest.indexOf('=');
    const key = strip(rest.slice(0, equals));
    const after = strip(rest.slice(equals + 1));
    if (equals === -1 || !key || (after[0] !== '"' && after[0] !== "'")) return null;
    const close = after.indexOf(after[0], 1);
    if (close === -1) return null;
    put(attributes, key, after.slice(1, close));
    rest = strip(after.slice(close + 1));
  }
  if (nameAttribute) name = own(attributes, nameAttribute) ?? null;
  return name === null ? null : { name, attributes };
}

// The schema a tool's schema declares for parameter `key` (own members only), or undefined.
const propertyOf = (schema, key) => {
  const properties = schema !== null && typeof schema === 'object' ? own(schema, 'properties') : undefined;
  return properties !== null && typeof properties === 'object' ? own(properties, key) : undefined;
};

// A value typed by its parameter's schema (§1b.4 steps 2–4).
function typed(schema, key, text, allowed) {
  const property = propertyOf(schema, key);
  return property === undefined ? text : typeText(text, property, allowed);
}

export function xmlGrammar(p, options = {}) {
  const P = p.parameter; const F = p.function;
  const quoted = !!p.quoted_names;
  const allowed = p.types || TYPES;
  const schemaOf = (name) => {
    const { tools } = options;
    if (!tools) return undefined;
    if (typeof tools.parameters === 'function') return tools.parameters(name) ?? undefined;
    return Object.hasOwn(tools, name) ? tools[name] : undefined;
  };
  const trim = (raw) => {
    if (p.value_trim === 'none') return raw;
    if (p.value_trim === 'newline') {
      if (raw.startsWith('\n')) raw = raw.slice(1);
      if (raw.endsWith('\n')) raw = raw.slice(0, -1);
      return raw;
    }
    return strip(raw);
  };
  const value = (raw, key, attributes, schema, written) => {
    const text = trim(raw);
    if (p.string_attribute && Object.hasOwn(attributes, p.string_attribute)) {
      if (attributes[p.string_attribute] === (p.string_value ?? 'true')) return text;
      if (classify(text)[0] !== 'ok') throw new Fault('marked-value-not-json');
      return loads(text);
    }
    if (written !== null) { // a written type (§1b.4), narrowed by the schema's own types
      const base = strip(written.split('[')[0]).toLowerCase();
      const property = propertyOf(schema, key);
      const declared = schema !== undefined ? declaredTypes(property) : [];
      if (declared.length) return typeTypes(text, declared.includes(base) ? [base] : declared, allowed);
      return WRITTEN.includes(base) ? typeTypes(text, [base], allowed) : text;
    }
    if (schema !== undefined) return typed(schema, key, text, allowed);
    if ((p.values || 'json-or-string') === 'json-or-string' && text && classify(text)[0] === 'ok') return loads(text);
    return text;
  };
  // The next parameter open tag in [pos, end), or -1; with the tool's schema, one whose key the
  // schema does not declare is text of the value (rule 13 of §1b).
  const nextParameter = (chunk, pos, end, schema) => {
    const before = (from) => { const at = chunk.indexOf(P.open, from); return at !== -1 && at < end ? at : -1; };
    let at = before(pos);
    const declared = schema !== null && typeof schema === 'object' ? own(schema, 'properties') : undefined;
    const properties = declared && typeof declared === 'object' && !Array.isArray(declared) ? declared : null;
    if (!properties || !Object.keys(properties).length) return at;
    while (at !== -1) {
      const keyAt = at + P.open.length;
      const following = before(keyAt);
      const stop = chunk.indexOf(P.name_end, keyAt);
      if (stop !== -1 && stop + P.name_end.length <= (following !== -1 ? following : end)) {
        let key = strip(chunk.slice(keyAt, stop));
        if (quoted) { const tag = readTag(key, p.parameter_name_attribute); key = tag ? tag.name : ''; }
        if (Object.hasOwn(properties, key)) return at;
      }
      at = following;
    }
    return -1;
  };
  const parameters = (chunk, pos, end, schema) => {
    const args = {};
    for (;;) {
      pos = skipBlanks(chunk, pos, end);
      if (pos >= end) return args;
      if (!chunk.startsWith(P.open, pos)) throw new Fault('text-between-parameters');
      const keyAt = pos + P.open.length;
      const stop = chunk.indexOf(P.name_end, keyAt);
      if (stop === -1 || stop + P.name_end.length > end) throw new Fault('unclosed-parameter-name');
      let key = strip(chunk.slice(keyAt, stop)); let attributes = {};
      if (quoted) {
        const tag = readTag(key, p.parameter_name_attribute);
        if (!tag) throw new Fault('bad-parameter-tag');
        key = tag.name; attributes = tag.attributes;
      }
      if (!key) throw new Fault('empty-parameter-name');
      pos = stop + P.name_end.length;
      let written = null;
      if (P.type_open) {
        const typeAt = skipBlanks(chunk, pos, end);
        if (chunk.startsWith(P.type_open, typeAt)) {
          const closeAt = chunk.indexOf(P.type_close, typeAt + P.type_open.length);
          if (closeAt === -1 || closeAt + P.type_close.length > end) throw new Fault('unclosed-parameter-type');
          written = strip(chunk.slice(typeAt + P.type_open.length, closeAt));
          pos = closeAt + P.type_close.length;
        }
      }
      if (P.value_open) {
        pos = skipBlanks(chunk, pos, end);
        if (!chunk.startsWith(P.value_open, pos)) throw new Fault('missing-value-tag');
        pos += P.value_open.length;
      }
      const nextAt = nextParameter(chunk, pos, end, schema);
      const stop2 = nextAt !== -1 ? nextAt : end;
      const closeAt = chunk.indexOf(P.close, pos);
      let raw;
      if (closeAt !== -1 && closeAt < stop2) { raw = chunk.slice(pos, closeAt); pos = closeAt + P.close.length; }
      else { raw = chunk.slice(pos, stop2); pos = stop2; }
      put(args, key, value(raw, key, attributes, schema, written));
    }
  };
  const one = (name, chunk, start, end, unfinished) => {
    if (unfinished) return call(name, {}, '', UNFINISHED);
    try { return call(name, parameters(chunk, start, end, schemaOf(name)), ''); } catch (f) { if (f instanceof Fault) return call(name, {}, '', f.code); throw f; }
  };
  // The call's name from its tag text; null when it does not read (the function stays unread).
  const readName = (text) => {
    let name = strip(text);
    if (quoted) {
      const tag = readTag(text, p.function_name_attribute);
      if (!tag || (!p.function_name_attribute && Object.keys(tag.attributes).length)) return null;
      name = tag.name;
    }
    return plausibleName(name) ? name : null;
  };
  const grammar = (chunk, fill, cut) => {
    const calls = [];
    let ranOut = false;
    if (!F) {
      let [stop, length] = earliest(chunk, p.name_end, 0);
      if (stop === -1) {
        if (cut) return { calls: [], end: chunk.length, unfinished: true }; // the name may be cut
        [stop, length] = [chunk.length, 0];
      }
      const name = readName(chunk.slice(0, stop));
      if (name === null) return null;
      const start = chunk.startsWith(P.open, stop) ? stop : stop + length; // rule 12
      calls.push(one(name, chunk, start, chunk.length, cut));
      ranOut = cut;
    } else {
      let pos = 0; const end = chunk.length;
      for (;;) {
        pos = skipBlanks(chunk, pos);
        if (pos === end) break;
        if (!chunk.startsWith(F.open, pos)) return null;
        const nameAt = pos + F.open.length;
        const stop = chunk.indexOf(F.name_end, nameAt);
        if (stop === -1) { if (!cut) return null; ranOut = true; break; }
        const name = readName(chunk.slice(nameAt, stop));
        if (name === null) return null;
        const body = stop + F.name_end.length;
        const closeAt = chunk.indexOf(F.close, body); const nextAt = chunk.indexOf(F.open, body);
        let bodyEnd; let unfinished;
        if (closeAt !== -1 && (nextAt === -1 || closeAt < nextAt)) { bodyEnd = closeAt; pos = closeAt + F.close.length; unfinished = false; }
        else { bodyEnd = nextAt !== -1 ? nextAt : end; pos = bodyEnd; unfinished = cut && bodyEnd === end; }
        calls.push(one(name, chunk, body, bodyEnd, unfinished));
        if (closeAt === -1 || (nextAt !== -1 && nextAt < closeAt)) { if (bodyEnd === end) { ranOut = true; break; } }
      }
    }
    if (calls.length || ranOut) return { calls, end: chunk.length, unfinished: ranOut };
    return null;
  };
  // §1b.5 step 2: where the functions starting at `start` end, each at the first close tag
  // after its open tag, only blanks between; -1 when none closes.
  if (F) {
    grammar.extent = (text, start) => {
      let pos = start; let end = -1;
      for (;;) {
        pos = skipBlanks(text, pos);
        if (!text.startsWith(F.open, pos)) return end;
        const closeAt = text.indexOf(F.close, pos + F.open.length);
        if (closeAt === -1) return -1;
        pos = end = closeAt + F.close.length;
      }
    };
  }
  return grammar;
}
