// The `stream:` part as the loader sees it (specs/README.md §2, §9.1, §9.12): its expressions,
// the rules its meta-schema cannot state, and a dialect's part laid over its base's.
import { escapePointer } from './yaml.js';

const OPERATIONS = ['init', 'set', 'append', 'open', 'update', 'close', 'extend', 'end'];
const OP_EXPRESSIONS = { init: ['value', 'identity'], open: ['key', 'id', 'value'], update: ['key', 'id', 'create'], close: ['key', 'value'], extend: ['value'], end: ['value'] };
const FIELD_MAPS = { update: ['first', 'join', 'append', 'set', 'buffer'], close: ['finalize'] };
const REQUIRED = ['framing', 'rules', 'ready'];
const UNTYPED = 'events needs stream.event_type (the expression naming an event)';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const objects = (v) => (Array.isArray(v) ? [...v.entries()].filter(([, x]) => isObject(x)) : []);

function* fields(pointer, map) {
  for (const [name, source] of Object.entries(map)) if (typeof source === 'string') yield [`${pointer}/${escapePointer(name)}`, source];
}

// [pointer, source] of every expression of the stream part.
export function* streamExpressions(data) {
  const stream = data.stream;
  if (!isObject(stream)) return;
  for (const key of ['event', 'shape', 'event_type', 'complete']) if (typeof stream[key] === 'string') yield [`/stream/${key}`, stream[key]];
  const keyed = { sniff: ['when'], unwrap: ['when', 'value'], error: ['when', 'code', 'message'] };
  for (const [part, keys] of Object.entries(keyed)) {
    if (isObject(stream[part])) for (const key of keys) if (typeof stream[part][key] === 'string') yield [`/stream/${part}/${key}`, stream[part][key]];
  }
  for (const [i, entry] of objects(stream.refuse)) if (typeof entry.when === 'string') yield [`/stream/refuse/${i}/when`, entry.when];
  for (const [i, rule] of objects(stream.rules)) {
    const base = `/stream/rules/${i}`;
    for (const key of ['when', 'each']) if (typeof rule[key] === 'string') yield [`${base}/${key}`, rule[key]];
    for (const op of OPERATIONS.filter((o) => isObject(rule[o]))) {
      const body = rule[op];
      if (op === 'set' || op === 'append') { yield* fields(`${base}/${op}`, body); continue; }
      for (const key of OP_EXPRESSIONS[op] || []) if (typeof body[key] === 'string') yield [`${base}/${op}/${key}`, body[key]];
      for (const key of FIELD_MAPS[op] || []) if (isObject(body[key])) yield* fields(`${base}/${op}/${key}`, body[key]);
    }
  }
}

// [pointer suffix, path] of every slot list a rule names.
function* slotLists(rule) {
  for (const op of ['open', 'update', 'close', 'extend']) {
    if (isObject(rule[op])) for (const key of ['list', 'at']) if (key in rule[op]) yield [`/${op}/${key}`, rule[op][key]];
  }
  if (isObject(rule.init) && Array.isArray(rule.init.slots)) for (const [j, list] of rule.init.slots.entries()) yield [`/init/slots/${j}`, list];
  if (isObject(rule.end) && 'keep' in rule.end) yield ['/end/keep', rule.end.keep];
}

// The stream part's problems (§2: stream-op, stream-rule-name, stream-events, stream-slot-list,
// and the keys §9.1 requires once `extends` is resolved). `at(pointer, rule, message)` places one.
export function streamProblems(data, at) {
  const stream = data.stream;
  if (!isObject(stream)) return [];
  const out = [];
  const partial = 'extends' in data; // a dialect's own part: its merged spec is checked in full
  let lists = null; // the item sources' selects and part_lists; unknown where items are inherited
  if (Array.isArray(data.items)) {
    lists = new Set(data.items.filter((s) => isObject(s) && 'select' in s).map((s) => s.select));
    if (Array.isArray(stream.part_lists)) for (const p of stream.part_lists) if (typeof p === 'string') lists.add(p);
  }
  if (!partial) for (const key of REQUIRED) if (!(key in stream)) out.push(at('/stream', 'missing-key', `the stream part needs '${key}'`));
  const typed = typeof stream.event_type === 'string' || partial;
  const names = new Map();
  for (const [i, rule] of objects(stream.rules)) {
    const pointer = `/stream/rules/${i}`;
    const ops = OPERATIONS.filter((o) => o in rule);
    if (ops.length !== 1) out.push(at(pointer, 'stream-op', `a rule needs exactly one operation${ops.length ? ` (has ${ops.join(', ')})` : ''}`));
    if (isObject(rule.update) && ('list' in rule.update) === ('at' in rule.update)) out.push(at(`${pointer}/update`, 'stream-op', 'an update needs exactly one of list and at'));
    if (typeof rule.name === 'string') {
      if (names.has(rule.name)) out.push(at(`${pointer}/name`, 'stream-rule-name', `rule name '${rule.name}' is used twice (also /stream/rules/${names.get(rule.name)})`));
      else names.set(rule.name, i);
    }
    if ('events' in rule && !typed) out.push(at(`${pointer}/events`, 'stream-events', UNTYPED));
    if (lists) {
      for (const [suffix, list] of slotLists(rule)) {
        if (typeof list === 'string' && !lists.has(list)) out.push(at(pointer + suffix, 'stream-slot-list', `slot list '${list}' is not one of the spec's item sources nor in stream.part_lists`));
      }
    }
  }
  if (isObject(stream.error) && 'events' in stream.error && !typed) out.push(at('/stream/error/events', 'stream-events', UNTYPED));
  for (const [i, entry] of objects(stream.refuse)) if ('events' in entry && !typed) out.push(at(`/stream/refuse/${i}/events`, 'stream-events', UNTYPED));
  return out;
}

// §9.12: the derived part laid over the base's, and the origin of each merged value
// (`{pointer: [doc, pointer]}`; `baseOrigin(pointer)` gives a base value's).
export function mergeStream(base, derived, baseOrigin, derivedDoc) {
  const origin = {};
  const own = (p) => [derivedDoc, p];
  if (!isObject(derived) || !isObject(base)) {
    if (derived === undefined && isObject(base)) { // inherited whole, without its sniff
      const { sniff: _never, ...inherited } = base;
      origin['/stream'] = baseOrigin('/stream');
      return { stream: inherited, origin };
    }
    origin['/stream'] = own('/stream');
    return { stream: derived, origin };
  }
  const stream = {};
  origin['/stream'] = own('/stream');
  for (const [key, value] of Object.entries(base)) {
    if (key !== 'sniff' && key !== 'rules') { stream[key] = value; origin[`/stream/${escapePointer(key)}`] = baseOrigin(`/stream/${escapePointer(key)}`); }
  }
  for (const [key, value] of Object.entries(derived)) {
    if (key !== 'rules') { stream[key] = value; origin[`/stream/${escapePointer(key)}`] = own(`/stream/${escapePointer(key)}`); }
  }
  if ('rules' in derived && !Array.isArray(derived.rules)) { // the schema check reports it
    stream.rules = derived.rules; origin['/stream/rules'] = own('/stream/rules');
    return { stream, origin };
  }
  const rules = (Array.isArray(base.rules) ? base.rules : []).map((rule, i) => ({ rule, from: baseOrigin(`/stream/rules/${i}`), base: true }));
  for (const [j, rule] of (derived.rules || []).entries()) {
    const slot = { rule, from: own(`/stream/rules/${j}`), base: false };
    const same = rules.findIndex((r) => r.base && isObject(r.rule) && isObject(rule) && r.rule.name === rule.name);
    if (same === -1) rules.push(slot); else rules[same] = slot;
  }
  stream.rules = rules.map((r) => r.rule);
  origin['/stream/rules'] = 'rules' in derived ? own('/stream/rules') : baseOrigin('/stream/rules');
  rules.forEach((r, n) => { origin[`/stream/rules/${n}`] = r.from; });
  return { stream, origin };
}
