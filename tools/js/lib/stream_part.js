// The `stream:` part of a wire spec (specs/README.md §9.1, §9.12): compiled once per spec,
// and the write-only document paths of §9.1.
import { compileExpression } from './expression.js';
import { isObject, own, put } from './json.js';
import { ToolwireError } from './interpreter.js';

export const fail = (code, reason, fields = {}) => new ToolwireError(code, reason, { reason, ...fields });
export const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// A document path `a.b[0].c` (§9.1) as steps: strings are members, numbers indexes.
function steps(path) {
  const out = [];
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g)) out.push(part.startsWith('[') ? Number(part.slice(1, -1)) : part);
  return out;
}
export function getPath(root, path) {
  let v = root;
  for (const s of steps(path)) { if (v === null || typeof v !== 'object') return undefined; v = own(v, s); }
  return v;
}
export function setPath(root, path, value) {
  const all = steps(path);
  let v = root;
  for (const [i, s] of all.entries()) {
    if (!isObject(v) && !(Array.isArray(v) && typeof s === 'number')) throw fail('malformed_stream', `${path} crosses a value that is not an object`);
    if (i === all.length - 1) { put(v, s, value); return; }
    if (typeof s === 'number') { if (!Object.hasOwn(v, s)) throw fail('malformed_stream', `${path}: no element ${s}`); } else if (own(v, s) === undefined || v[s] === null) put(v, s, {});
    v = v[s];
  }
}

// The stream part of a spec, compiled once; the loader laid a dialect's over its base's (§9.12).
const parts = new WeakMap();
export function partOf(spec) {
  if (!parts.has(spec)) parts.set(spec, spec.data.stream ? compilePart(spec.data.stream) : null);
  return parts.get(spec);
}

function compilePart(data) {
  const c = (s) => (s === undefined || s === null ? null : compileExpression(s));
  const map = (m) => Object.entries(m || {}).map(([path, s]) => [path, c(s)]);
  const matcher = (e) => e && { events: e.events || null, when: c(e.when), code: c(e.code), message: c(e.message), reason: e.reason };
  const op = (rule) => {
    for (const name of ['init', 'set', 'append', 'open', 'update', 'close', 'extend', 'end']) {
      if (!(name in rule)) continue;
      const o = rule[name];
      if (name === 'set') return { name, set: map(o) };
      if (name === 'append') return { name, append: map(o) };
      return {
        name, list: o.list ?? null, at: o.at ?? null, keep: o.keep ?? null, slots: o.slots || [],
        value: c(o.value), identity: c(o.identity), key: c(o.key), id: c(o.id), create: c(o.create),
        first: map(o.first), join: map(o.join), append: map(o.append), set: map(o.set), buffer: map(o.buffer), finalize: map(o.finalize),
      };
    }
    throw new Error(`rule ${rule.name} has no operation`);
  };
  const rules = data.rules.map((r) => ({ name: r.name, events: r.events || null, when: c(r.when), each: c(r.each), op: op(r) }));
  return {
    data,
    sentinel: data.sentinel ?? null,
    sentinelCompletes: data.sentinel_completes === true, // §9.6: the sentinel completes the stream
    shape: c(data.shape), // §9.5 step 7: what every event of the format looks like
    // §9.6: lists whose items close by an event; an item still open there at completion is unfinished
    closing: new Set(rules.filter((r) => r.op.name === 'close').map((r) => r.op.list)),
    sniff: data.sniff ? { when: c(data.sniff.when), priority: data.sniff.priority } : null,
    event_type: c(data.event_type),
    unwrap: data.unwrap ? { when: c(data.unwrap.when), value: c(data.unwrap.value) } : null,
    error: matcher(data.error),
    refuse: (data.refuse || []).map(matcher),
    complete: c(data.complete),
    ready: data.ready,
    rules,
  };
}
