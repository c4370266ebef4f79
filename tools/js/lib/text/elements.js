// Grammar `xml-elements` (specs/README.md §1b.11): MiniMax-M3's functions whose arguments are
// elements named after them, nested for objects and arrays, typed by the tools' schemas (§1b.4).
import { call, Fault, plausibleName, skipBlanks, strip, UNFINISHED } from './common.js';
import { declaredTypes, typeText } from './typing.js';
import { own } from '../json.js';

const DEPTH = 64;

const isMapping = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const typeLeaf = (text, schema) => typeText(text, schema);
const isArray = (schema) => { const t = declaredTypes(schema); return t.includes('array') && !t.includes('object'); };
const mapping = (v) => (isMapping(v) ? v : null);
function childSchema(schema, name) {
  if (!schema) return null;
  const properties = mapping(own(schema, 'properties'));
  if (properties && Object.hasOwn(properties, name)) return mapping(properties[name]);
  return mapping(own(schema, 'additionalProperties'));
}

// A node is a leaf's text (a string) or its children, [name, node] pairs in the order written.
function object(children, schema, typed) {
  const groups = new Map();
  for (const [name, node] of children) { if (!groups.has(name)) groups.set(name, []); groups.get(name).push(node); }
  return Object.fromEntries([...groups].map(([name, nodes]) => {
    const sub = childSchema(schema, name);
    if (nodes.length === 1) return [name, value(nodes[0], sub, typed)];
    const item = sub && isArray(sub) ? mapping(own(sub, 'items')) : sub;
    return [name, nodes.map((n) => value(n, item, typed))];
  }));
}
function value(node, schema, typed) {
  if (typeof node === 'string') return typed ? typeLeaf(node, schema) : node;
  if (typed && isArray(schema)) { const item = mapping(own(schema, 'items')); return node.map(([, n]) => value(n, item, typed)); }
  return object(node, schema, typed);
}

// The next occurrence of a marker from a position, remembered so forward searches stay linear.
function finder(text) {
  const memo = new Map();
  return (marker, pos) => {
    const m = memo.get(marker);
    if (m && pos >= m.from && (m.at === -1 || pos <= m.at)) return m.at;
    const at = text.indexOf(marker, pos);
    memo.set(marker, { from: pos, at });
    return at;
  };
}

export function elementGrammar(p, options = {}) {
  const F = p.function; const E = p.element;
  const schemaOf = (name) => {
    const { tools } = options;
    if (!tools) return undefined;
    if (typeof tools.parameters === 'function') return tools.parameters(name) ?? undefined;
    return Object.hasOwn(tools, name) ? tools[name] : undefined;
  };
  const readName = (text) => {
    let name = strip(text);
    if (name.length >= 2 && name[0] === name[name.length - 1] && (name[0] === '"' || name[0] === "'")) name = name.slice(1, -1);
    return plausibleName(name) ? name : null;
  };
  const grammar = (chunk, _fill, cut) => {
    const find = finder(chunk);
    // The next element marker in [pos, end): [position, isClose], the longer at one place.
    const marker = (pos, end) => {
      const openAt = find(E.open, pos); const closeAt = find(E.close, pos);
      if (closeAt !== -1 && (openAt === -1 || closeAt < openAt || (closeAt === openAt && E.close.length > E.open.length))) {
        return closeAt < end ? [closeAt, true] : [-1, false];
      }
      return openAt !== -1 && openAt < end ? [openAt, false] : [-1, false];
    };
    const blank = (a, b) => !strip(chunk.slice(a, b));
    const element = (at, end, depth) => {
      if (depth > DEPTH) throw new Fault('elements-too-deep');
      const nameAt = at + E.open.length;
      const stop = find(E.name_end, nameAt);
      if (stop === -1 || stop >= end || !plausibleName(chunk.slice(nameAt, stop))) throw new Fault('bad-element-tag');
      const name = chunk.slice(nameAt, stop);
      const content = stop + E.name_end.length;
      const closeTag = E.close + name + E.name_end;
      const children = [];
      let pos = content;
      for (;;) {
        const [m, isClose] = marker(pos, end);
        if (m === -1) throw new Fault('unclosed-element');
        if (isClose) {
          if (!chunk.startsWith(closeTag, m) || m + closeTag.length > end) throw new Fault('unclosed-element');
          if (!children.length) return [name, chunk.slice(content, m), m + closeTag.length];
          if (!blank(pos, m)) throw new Fault('text-between-elements');
          return [name, children, m + closeTag.length];
        }
        if (!blank(pos, m)) throw new Fault('text-between-elements');
        const [child, node, after] = element(m, end, depth + 1);
        children.push([child, node]); pos = after;
      }
    };
    const topLevel = (pos, end) => {
      const children = [];
      for (;;) {
        const [m, isClose] = marker(pos, end);
        if (m === -1) { if (!blank(pos, end)) throw new Fault('text-between-elements'); return children; }
        if (!blank(pos, m)) throw new Fault('text-between-elements');
        if (isClose) throw new Fault('unexpected-close-tag');
        const [name, node, after] = element(m, end, 1);
        children.push([name, node]); pos = after;
      }
    };
    const calls = []; const end = chunk.length; let pos = 0;
    for (;;) {
      pos = skipBlanks(chunk, pos);
      if (pos === end) return calls.length ? { calls, end } : null;
      if (!chunk.startsWith(F.open, pos)) return null;
      const nameAt = pos + F.open.length;
      const stop = find(F.name_end, nameAt);
      if (stop === -1) return cut ? { calls, end, unfinished: true } : null; // the tag may be cut
      const name = readName(chunk.slice(nameAt, stop));
      if (name === null) return null;
      const body = stop + F.name_end.length;
      const closeAt = find(F.close, body); const nextAt = find(F.open, body);
      if (closeAt === -1 || (nextAt !== -1 && nextAt < closeAt)) {
        calls.push(call(name, {}, '', UNFINISHED));
        if (nextAt === -1) return { calls, end, unfinished: true }; // it ran into the body's end
        pos = nextAt;
        continue;
      }
      pos = closeAt + F.close.length;
      const schema = mapping(schemaOf(name) ?? null);
      try {
        calls.push(call(name, object(topLevel(body, closeAt), schema, schema !== null), ''));
      } catch (f) {
        if (!(f instanceof Fault)) throw f;
        calls.push(call(name, {}, '', f.code));
      }
    }
  };
  // §1b.5 step 2: where the functions starting at `start` end, each at the first close tag
  // after its open tag, only blanks between; -1 when none closes.
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
  return grammar;
}
