// Grammar `xml-parameters` (specs/README.md §1b.8, rules 10–12 of §1b, typed values §1b.4):
// a call's name (in a function tag, or the block's first line), then one tag pair per parameter.
import { classify, loads } from '../json.js';
import { call, earliest, Fault, isBlank, plausibleName, skipBlanks, strip, UNFINISHED } from './common.js';
import { TYPES, typeText } from './typing.js';

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
    attributes[key] = after.slice(1, close);
    rest = strip(after.slice(close + 1));
  }
  if (nameAttribute) name = attributes[nameAttribute] ?? null;
  return name === null ? null : { name, attributes };
}

// A value typed by its parameter's schema (§1b.4 steps 2–4).
function typed(schema, key, text, allowed) {
  const property = schema?.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
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
  const value = (raw, key, attributes, schema) => {
    const text = trim(raw);
    if (p.string_attribute && Object.hasOwn(attributes, p.string_attribute)) {
      if (attributes[p.string_attribute] === (p.string_value ?? 'true')) return text;
      if (classify(text)[0] !== 'ok') throw new Fault('marked-value-not-json');
      return loads(text);
    }
    if (schema !== undefined) return typed(schema, key, text, allowed);
    if ((p.values || 'json-or-string') === 'json-or-string' && text && classify(text)[0] === 'ok') return loads(text);
    return text;
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
      if (P.value_open) {
        pos = skipBlanks(chunk, pos, end);
        if (!chunk.startsWith(P.value_open, pos)) throw new Fault('missing-value-tag');
        pos += P.value_open.length;
      }
      const closeAt = chunk.indexOf(P.close, pos); const nextAt = chunk.indexOf(P.open, pos);
      let raw;
      if (closeAt !== -1 && closeAt < end && (nextAt === -1 || closeAt < nextAt)) { raw = chunk.slice(pos, closeAt); pos = closeAt + P.close.length; }
      else { const stop2 = nextAt !== -1 && nextAt < end ? nextAt : end; raw = chunk.slice(pos, stop2); pos = stop2; }
      args[key] = value(raw, key, attributes, schema);
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
  return (chunk, fill, cut) => {
    const calls = [];
    if (!F) {
      let [stop, length] = earliest(chunk, p.name_end, 0);
      if (stop === -1) [stop, length] = [chunk.length, 0];
      const name = readName(chunk.slice(0, stop));
      if (name === null) return null;
      const start = chunk.startsWith(P.open, stop) ? stop : stop + length; // rule 12
      calls.push(one(name, chunk, start, chunk.length, cut));
    } else {
      let pos = 0; const end = chunk.length;
      for (;;) {
        pos = skipBlanks(chunk, pos);
        if (pos === end) break;
        if (!chunk.startsWith(F.open, pos)) return null;
        const nameAt = pos + F.open.length;
        const stop = chunk.indexOf(F.name_end, nameAt);
        if (stop === -1) return null;
        const name = readName(chunk.slice(nameAt, stop));
        if (name === null) return null;
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
