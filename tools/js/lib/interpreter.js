// read(spec, response): the evaluation of specs/README.md §1.3, on a loaded spec.
import { decodeArguments, isObject, loads, own, put } from './json.js';
import { holds } from './expression.js';
import { normalized } from './normalize.js';
import { responseValues } from './turn.js';
import { providerText } from './provider_text.js';

export class ToolwireError extends Error {
  constructor(code, message, fields = {}) { super(message); this.code = code; Object.assign(this, fields); }
}
const malformed = (message, fields) => new ToolwireError('malformed_response', message, fields);

// specs/README.md §1.4.1: a reply handed over as values is held to what JSON text can hold.
// A value kept in a call is walked once, with the containers on the way from its root
// remembered: one met again is a cycle; a number must be finite.
function jsonValue(value) {
  const path = new Set();
  const stack = [[value, false]];
  while (stack.length) {
    const [v, leaving] = stack.pop();
    if (leaving) { path.delete(v); continue; }
    if (typeof v === 'number' && !Number.isFinite(v)) throw malformed(`response is not JSON: ${v} is no JSON number`);
    if (v === null || typeof v !== 'object') continue;
    if (path.has(v)) throw malformed('response is not JSON: a list or object holds itself (a cycle)');
    path.add(v);
    stack.push([v, true]);
    for (const inner of Array.isArray(v) ? v : Object.values(v)) stack.push([inner, false]);
  }
  return value;
}
const KINDS = ['refuse', 'calls', 'server_side', 'ignore'];

// A number id as ECMAScript's Number::toString writes it (§1.3 step 5).
function idText(value) {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function listed(value, single, what) {
  if (value === null) return [];
  if (Array.isArray(value)) return value;
  if (single && isObject(value)) return [value];
  throw malformed(`${what} is not a list`);
}

function typeOf(source, item) {
  if ('type_const' in source) return source.type_const;
  if (source.type_by_key) {
    const key = source.type_by_key.find((k) => own(item, k) !== undefined && own(item, k) !== null);
    if (key !== undefined) return key;
    // the smallest non-null key, by code points: reported, never matched (§1.1)
    const named = Object.keys(item).filter((k) => item[k] !== null).sort(byCodePoints);
    return named.length ? { unlisted: named[0] } : null;
  }
  const value = own(item, source.type_field);
  return value === undefined || value === null ? (source.type_default ?? null) : value;
}

function byCodePoints(a, b) {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

// Every item in response order: { index, item, type, location }.
function* walk(spec, response) {
  for (const source of spec.items) {
    const items = listed(source.select.evaluate(response), source.single, source.select.source);
    for (const [index, item] of items.entries()) yield* withNested(source, item, index);
  }
}

// One top-level item of a source and its nested children (§1.3 step 3).
export function* withNested(source, item, index) {
  if (!isObject(item)) throw malformed('item is not an object', { item_index: index });
  const location = source.single ? source.select.source : `${source.select.source}[${index}]`;
  yield { index, item, type: typeOf(source, item), location };
  for (const nested of source.nested || []) {
    if (!holds(nested.when, item)) continue;
    for (const [j, child] of listed(nested.select.evaluate(item), false, nested.select.source).entries()) {
      if (!isObject(child)) throw malformed('item is not an object', { item_index: index });
      if ((source.nested || []).some((n) => holds(n.when, child))) {
        throw malformed('nested items are walked one level only', { item_index: index });
      }
      yield { index, item: child, type: typeOf(source, child), location: `${location}.${nested.select.source}[${j}]`, nested: true };
    }
  }
}

function match(spec, item, type) {
  if (typeof type !== 'string') return null;
  for (const kind of KINDS) {
    for (const [i, entry] of (spec[kind] || []).entries()) {
      if (entry.type === type && (!entry.when || holds(entry.when, item))) return { kind, entry, index: i };
    }
  }
  return null;
}

const textOrNull = (v) => (typeof v === 'string' ? v : null);

// The list at a dotted field path, or undefined (§1.9).
const atPath = (data, path) => path.split('.').reduce((v, k) => (isObject(v) ? own(v, k) : undefined), data);

// §1.9: the view of alternative k — objects on the path copied, the list replaced by [list[k]].
function viewOf(spec, response, choice) {
  const count = spec.choices ? (Array.isArray(atPath(response, spec.choices.list)) ? atPath(response, spec.choices.list).length : 0) : null;
  if (choice === null || choice === undefined) return { view: response, count, choice: 0 };
  if (!Number.isInteger(choice) || choice < 0) throw new TypeError('choice must be an integer >= 0');
  if (!spec.choices) {
    if (choice > 0) throw new ToolwireError('not_declared', `${spec.format} declares no choices`, { part: 'choices' });
    return { view: response, count, choice };
  }
  if (choice === 0) return { view: response, count, choice }; // never range-checked (§1.9)
  if (choice >= count) throw malformed(`choice ${choice} of ${count} alternatives`);
  const keys = spec.choices.list.split('.');
  const copy = (obj, depth) => {
    const out = { ...obj };
    const inner = own(obj, keys[depth]);
    return put(out, keys[depth], depth === keys.length - 1 ? [inner[choice]] : copy(inner, depth + 1));
  };
  return { view: copy(response, 0), count, choice };
}

function parsed(data) {
  let response = data;
  if (typeof response === 'string') {
    try { response = loads(response); } catch { throw malformed('response is not JSON'); }
  }
  if (!isObject(response)) throw malformed('a response must be a JSON object');
  return response;
}

// Classify one walked item into the reply's lists (§1.3 steps 4-5); refusals are collected.
export function visit(spec, reply, refusals, { index, item, type, location }, refuseUnknown) {
  const shown = typeof type === 'string' ? type : (type && type.unlisted) || null;
  const found = match(spec, item, type);
  const record = { item_index: index, location, item_type: shown };
  reply.items.push({ ...record, kind: found ? found.kind : 'unknown', entry: found ? found.index : null });
  if (!found) {
    if (refuseUnknown) {
      const reason = `unknown item type ${shown}`;
      reply.refused.push({ ...record, code: 'unknown_item_type', reason });
      refusals.push(new ToolwireError('unknown_item_type', `unknown item type ${providerText(String(shown))}`, { ...record }));
      return;
    }
    reply.unknown.push({ ...record, reason: `no entry of ${spec.format} matches this item` });
    if (shown !== null && !reply.unknown_types.includes(shown)) reply.unknown_types.push(shown);
    return;
  }
  const { kind, entry } = found;
  if (kind === 'refuse') {
    reply.refused.push({ ...record, code: 'unmapped_call', reason: entry.reason });
    refusals.push(new ToolwireError('unmapped_call', entry.reason, { ...record, reason: entry.reason }));
  } else if (kind === 'calls') {
    const name = entry.name.evaluate(item);
    if (typeof name !== 'string' || !name) { reply.skipped.push(record); return; }
    const raw = jsonValue(entry.arguments.evaluate(item));
    const decoded = decodeArguments(raw);
    const call = {
      name, arguments: structuredClone(decoded.arguments), id: entry.id ? idText(entry.id.evaluate(item)) : '',
      synthetic: false, arguments_undecodable: decoded.undecodable,
    };
    if (decoded.code) { call.arguments_error_code = decoded.code; call.arguments_error = `the arguments do not decode (${decoded.code})`; }
    if (raw !== null) call.raw_arguments = typeof raw === 'object' ? structuredClone(raw) : raw; // §1.7: provenance, as sent (a copy)
    call.item_index = index;
    const kept = (entry.keep || []).map(([key, e]) => [key, jsonValue(e.evaluate(item))]).filter(([, v]) => v !== null);
    if (kept.length) call.provider_data = Object.fromEntries(kept);
    reply.calls.push(call);
    reply.call_records.push({ ...record, entry: found.index, arguments_selected: raw !== null });
  } else if (kind === 'server_side') {
    const server = { type: shown, id: textOrNull(entry.id.evaluate(item)) ?? '' };
    const name = textOrNull(entry.name.evaluate(item));
    const status = textOrNull(entry.status.evaluate(item));
    if (name !== null) server.name = name;
    if (status !== null) server.status = status;
    jsonValue(item);
    const input = entry.input ? entry.input.evaluate(item) : null;
    if (input !== null && input !== undefined) server.input = input; // §1.3 step 5
    reply.server_calls.push(server);
  }
}

export const emptyReply = (spec) => ({
  format: spec.format, calls: [], server_calls: [], unknown_types: [], skipped: [], unknown: [], refused: [],
  call_records: [], items: [], truncated: false, finish_reason: null, choice: 0, choice_count: null, text: null,
  turn: null,
});

// A provider error's field (§1.12): a string as sent, a number as an id writes it, else null.
const fact = (value) => (typeof value === 'string' ? value : (typeof value === 'number' ? (idText(value) || null) : null));

// The provider_error `response` is per the spec's `error` (§1.12), or null.
export function providerError(spec, response) {
  const part = spec.error;
  if (!part || !holds(part.when, response)) return null;
  const kept = (part.keep || []).map(([key, e]) => [key, e.evaluate(response)]).filter(([, v]) => v !== null);
  const fields = {
    format: spec.format, error_message: fact(part.message.evaluate(response)),
    error_type: part.type ? fact(part.type.evaluate(response)) : null,
    error_code: part.code ? fact(part.code.evaluate(response)) : null,
    provider_data: Object.fromEntries(kept.map(([key, value]) => [key, structuredClone(value)])),
  };
  const said = fields.error_message ? providerText(fields.error_message) : '(no message)';
  return new ToolwireError('provider_error', `${spec.format}: the provider answered with an error: ${said}`, fields);
}

// §1.3 step 1 after parsing: the provider's error, a stream event (§9.9), a body without the
// shape (§1.11), in that order; `shape_mismatch` marks the last for a registry (readIn).
export function gate(spec, response) {
  try {
    const error = providerError(spec, response);
    if (error) throw error;
    if (spec.stream_event && holds(spec.stream_event, response)) {
      throw malformed(`this is one event of a ${spec.format} stream, not a response: use the Accumulator`);
    }
    if (spec.shape && !holds(spec.shape.when, response)) {
      throw malformed(`the body has no ${spec.shape.needs}, which every ${spec.format} reply has`, { looks_like: null, shape_mismatch: true });
    }
  } catch (error) {
    if (error instanceof ToolwireError) throw error;
    throw malformed(`an expression of the spec failed: ${error.message}`);
  }
}

// The reply's failed calls (§1.13): a skipped record each, about the reply as a whole.
function failedCalls(spec, view) {
  return (spec.failed_calls || []).filter((f) => holds(f.when, view)).map((f) => {
    const reason = f.reason ? f.reason.evaluate(view) : null;
    return { item_index: null, location: '', item_type: f.type, reason: typeof reason === 'string' && reason ? reason : `the reply reports a failed call (${f.type})` };
  });
}

// read(spec, response, strict, choice): the Reply of §1.3 (records, choices and text included).
export function read(spec, data, strict = null, choice = null) {
  const response = normalized(spec, parsed(data));
  gate(spec, response);
  const { view, count, choice: chosen } = viewOf(spec, response, choice);
  const refuseUnknown = strict === null || strict === undefined ? spec.unknown_items === 'refuse' : strict;
  const reply = { ...emptyReply(spec), choice: chosen, choice_count: count };
  const refusals = [];
  try {
    // §7: the turn's items: each top-level item as sent, a call item as its call's index
    const echoed = spec.data && spec.data.render ? [] : null;
    for (const walked of walk(spec, view)) {
      const [calls, skipped] = [reply.calls.length, reply.skipped.length];
      visit(spec, reply, refusals, walked, refuseUnknown);
      if (echoed === null || walked.nested) continue;
      if (reply.calls.length > calls) echoed.push(calls);
      else if (reply.skipped.length === skipped) echoed.push(walked.item);
    }
    reply.truncated = spec.truncated ? holds(spec.truncated, view) : false;
    reply.finish_reason = spec.finish_reason ? textOrNull(spec.finish_reason.evaluate(view)) : null;
    reply.skipped.push(...failedCalls(spec, view));
    if (spec.content) reply.text = textOf(spec.content.evaluate(view));
    // Copies: the caller may change the response after reading it (a block's text, a signature).
    if (echoed !== null) reply.turn = { items: echoed.map((e) => (typeof e === 'number' ? e : structuredClone(e))), response: structuredClone(responseValues(spec, view)) };
  } catch (error) {
    if (refusals.length) throw withReply(refusals[0], reply); // the first refusal wins (§1.3 step 7)
    if (error instanceof ToolwireError) throw error;
    throw malformed(`an expression of the spec failed: ${error.message}`);
  }
  reply.fates = fates(reply);
  if (refusals.length) throw withReply(refusals[0], reply);
  return reply;
}

const withReply = (error, reply) => { error.reply = { ...reply, fates: fates(reply) }; return error; };

// §1.10: a string, or the string members of a list joined; anything else is no text.
function textOf(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const parts = value.filter((v) => typeof v === 'string');
    return value.length ? parts.join('') : null;
  }
  return null;
}

// from_structured_output (§1.8): the reply's text as the one call of tool_name.
export function fromStructuredOutput(spec, data, toolName, choice = null) {
  if (typeof toolName !== 'string' || !toolName) throw new TypeError('tool_name must be a non-empty string');
  if (!spec.structured_output) throw new ToolwireError('not_declared', `${spec.format} declares no structured_output`, { part: 'structured_output' });
  const response = normalized(spec, parsed(data));
  gate(spec, response);
  const { view } = viewOf(spec, response, choice);
  let text;
  try { text = spec.structured_output.text.evaluate(view); } catch (error) { throw malformed(`the text selector failed: ${error.message}`); }
  if (Array.isArray(text) && text.every((t) => typeof t === 'string')) text = text.length ? text.join('') : null;
  if (typeof text !== 'string') throw malformed(text === null ? 'the reply carries no text' : 'the reply text is not a string');
  const decoded = text === '' ? { arguments: {}, undecodable: true, code: 'unexpected-end' } : decodeArguments(text);
  const call = { name: toolName, arguments: decoded.arguments, id: '', synthetic: true, arguments_undecodable: decoded.undecodable };
  if (decoded.code) call.arguments_error_code = decoded.code;
  call.raw_arguments = text;
  return call;
}

// The tool-loop split of §1.3.1.
export function fates(reply) {
  const last = reply.calls.length - 1;
  return reply.calls.map((call, i) => {
    if (call.incomplete) return 'dropped';
    if (reply.truncated && (call.arguments_undecodable || i === last)) return 'dropped';
    return call.arguments_undecodable || call.unknown_tool || call.arguments_invalid ? 'rejected' : 'runnable';
  });
}

// The specs with a sniff, by descending priority then name (§1.3).
const sniffOrder = (specs) => Object.values(specs).filter((s) => s.sniff)
  .sort((a, b) => b.sniff.priority - a.sniff.priority || (a.format < b.format ? -1 : 1));

// What sniff_format answers (§1.3): null for a part of a reply (a choice, a message, a content
// block: §1.11), else the first spec whose sniff predicate holds.
export function sniffFormat(specs, data) {
  return partOf(specs, data) ? null : sniff(specs, data);
}

// The first spec, by descending priority then name, whose sniff predicate holds.
export function sniff(specs, data) {
  for (const spec of sniffOrder(specs)) {
    try { if (holds(spec.sniff.when, data)) return spec.format; } catch { /* not this one */ }
  }
  return null;
}

// §1.11: the error for a part of a reply (a choice, a message, a content block) by the `shape.parts`
// of the specs that sniff, in sniff order (`first`'s own first); null where none holds.
export function partOf(specs, response, first = null) {
  const order = sniffOrder(specs);
  const ordered = first ? [...order.filter((s) => s.format === first), ...order.filter((s) => s.format !== first)] : order;
  for (const spec of ordered) {
    for (const part of (spec.shape && spec.shape.parts) || []) {
      let hit = false;
      try { hit = holds(part.when, response); } catch { /* not this one */ }
      if (hit) {
        const article = /^[aeiou]/.test(spec.format) ? 'an' : 'a';
        return { format: spec.format, message: `this is ${part.is} of ${article} ${spec.format} reply, not a whole reply: pass the whole response the API returned (the SDK's response object, or its JSON body)` };
      }
    }
  }
  return null;
}

// The provider_error of the first spec in sniff order (`but` left out) whose error holds (§1.12).
function errorOf(specs, response, but = null) {
  for (const spec of sniffOrder(specs)) {
    if (spec.format === but) continue;
    try { const error = providerError(spec, response); if (error) return error; } catch { /* not this one */ }
  }
  return null;
}

// §1.11: a body without the shape of `spec`, looked at by the other specs: another format's
// provider_error, or the mismatch naming the first other format whose sniff and shape hold.
function elsewhere(specs, spec, response, mismatch) {
  const error = errorOf(specs, response, spec.format);
  if (error) return error;
  const part = partOf(specs, response, spec.format);
  if (part) { mismatch.message += `; ${part.message}`; return mismatch; }
  for (const other of sniffOrder(specs)) {
    if (other.format === spec.format) continue;
    try {
      if (!holds(other.sniff.when, response)) continue;
      gate(other, normalized(other, response));
    } catch { continue; }
    mismatch.looks_like = other.format;
    mismatch.message += `; this looks like a ${other.format} reply: use format '${other.format}'`;
    return mismatch;
  }
  return mismatch;
}

// read with every spec at hand (a registry, §1.11-1.12): `format` null sniffs, a body no
// format sniffs is tried against the specs' errors, and a shape mismatch is looked at again.
export function readIn(specs, format, data, strict = null, choice = null) {
  const response = parsed(data);
  let spec = format === null ? null : specs[format];
  if (format === null) {
    const part = isObject(response) ? partOf(specs, response) : null;
    if (part) throw malformed(part.message, { format: part.format }); // never read as another reply
    const sniffed = sniff(specs, response);
    if (sniffed === null) {
      const error = errorOf(specs, response);
      if (error) throw error;
      for (const other of Object.values(specs)) {
        if (other.stream_event && holds(other.stream_event, response)) throw malformed(`this is one event of a ${other.format} stream`);
      }
      throw new ToolwireError('unknown_format', 'no format recognises this response', { format: null });
    }
    spec = specs[sniffed];
  }
  if (!spec) throw new ToolwireError('unknown_format', `unknown format ${format}`, { format });
  try { return read(spec, response, strict, choice); } catch (error) {
    if (error instanceof ToolwireError && error.shape_mismatch) throw elsewhere(specs, spec, response, error);
    throw error;
  }
}
