// read(spec, response): the evaluation of specs/README.md §1.3, on a loaded spec.
import { decodeArguments, isObject, loads } from './json.js';
import { holds } from './expression.js';

export class ToolwireError extends Error {
  constructor(code, message, fields = {}) { super(message); this.code = code; Object.assign(this, fields); }
}
const malformed = (message, fields) => new ToolwireError('malformed_response', message, fields);
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
    const key = source.type_by_key.find((k) => item[k] !== undefined && item[k] !== null);
    if (key !== undefined) return key;
    // the smallest non-null key, by code points: reported, never matched (§1.1)
    const named = Object.keys(item).filter((k) => item[k] !== null).sort(byCodePoints);
    return named.length ? { unlisted: named[0] } : null;
  }
  const value = item[source.type_field];
  return value === undefined || value === null ? (source.type_default ?? null) : value;
}

function byCodePoints(a, b) {
  const x = [...a].map((c) => c.codePointAt(0));
  const y = [...b].map((c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

// Every item in response order: { index, item, type }.
function* walk(spec, response) {
  for (const source of spec.items) {
    const items = listed(source.select.evaluate(response), source.single, source.select.source);
    for (const [index, item] of items.entries()) {
      if (!isObject(item)) throw malformed('item is not an object', { item_index: index });
      yield { index, item, type: typeOf(source, item) };
      for (const nested of source.nested || []) {
        if (!holds(nested.when, item)) continue;
        for (const child of listed(nested.select.evaluate(item), false, nested.select.source)) {
          if (!isObject(child)) throw malformed('item is not an object', { item_index: index });
          if ((source.nested || []).some((n) => holds(n.when, child))) {
            throw malformed('nested items are walked one level only', { item_index: index });
          }
          yield { index, item: child, type: typeOf(source, child) };
        }
      }
    }
  }
}

function match(spec, item, type) {
  if (typeof type !== 'string') return null;
  for (const kind of KINDS) {
    for (const entry of spec[kind] || []) {
      if (entry.type === type && (!entry.when || holds(entry.when, item))) return { kind, entry };
    }
  }
  return null;
}

const textOrNull = (v) => (typeof v === 'string' ? v : null);

export function read(spec, data, strict = null) {
  let response = data;
  if (typeof response === 'string') {
    try { response = loads(response); } catch { throw malformed('response is not JSON'); }
  }
  if (!isObject(response)) throw malformed('a response must be a JSON object');
  // specs/README.md §6.9: one event of the format's stream is refused, naming the accumulator.
  if (spec.stream_event && holds(spec.stream_event, response)) {
    throw malformed(`this is one event of a ${spec.format} stream, not a response: use the Accumulator`);
  }
  const refuseUnknown = strict === null || strict === undefined ? spec.unknown_items === 'refuse' : strict;
  const reply = { calls: [], server_calls: [], unknown_types: [], skipped: [] };
  try {
    for (const { index, item, type } of walk(spec, response)) {
      const shown = typeof type === 'string' ? type : (type && type.unlisted) || null;
      const found = match(spec, item, type);
      if (!found) {
        if (refuseUnknown) throw new ToolwireError('unknown_item_type', `unknown item type ${shown}`, { item_index: index, item_type: shown });
        if (shown !== null && !reply.unknown_types.includes(shown)) reply.unknown_types.push(shown);
        continue;
      }
      const { kind, entry } = found;
      if (kind === 'refuse') throw new ToolwireError('unmapped_call', entry.reason, { item_index: index, item_type: shown });
      if (kind === 'calls') {
        const name = entry.name.evaluate(item);
        if (typeof name !== 'string' || !name) { reply.skipped.push({ item_index: index, item_type: shown }); continue; }
        const raw = entry.arguments.evaluate(item);
        const decoded = decodeArguments(raw);
        const call = {
          name, arguments: structuredClone(decoded.arguments), id: entry.id ? idText(entry.id.evaluate(item)) : '',
          synthetic: false, arguments_undecodable: decoded.undecodable,
        };
        if (decoded.code) call.arguments_error_code = decoded.code;
        if (raw !== null) call.raw_arguments = raw; // §1.7: provenance, as sent
        call.item_index = index;
        const kept = (entry.keep || []).map(([key, e]) => [key, e.evaluate(item)]).filter(([, v]) => v !== null);
        if (kept.length) call.provider_data = Object.fromEntries(kept);
        reply.calls.push(call);
      } else if (kind === 'server_side') {
        const server = { type: shown, id: textOrNull(entry.id.evaluate(item)) ?? '' };
        const name = textOrNull(entry.name.evaluate(item));
        const status = textOrNull(entry.status.evaluate(item));
        if (name !== null) server.name = name;
        if (status !== null) server.status = status;
        const input = entry.input ? entry.input.evaluate(item) : null;
        if (input !== null && input !== undefined) server.input = input;  // §1.3 step 5
        reply.server_calls.push(server);
      }
    }
    reply.truncated = spec.truncated ? holds(spec.truncated, response) : false;
    reply.finish_reason = spec.finish_reason ? textOrNull(spec.finish_reason.evaluate(response)) : null;
  } catch (error) {
    if (error instanceof ToolwireError) throw error;
    throw malformed(`an expression of the spec failed: ${error.message}`);
  }
  reply.fates = fates(reply);
  return reply;
}

// The tool-loop split of §1.3.1.
function fates(reply) {
  const last = reply.calls.length - 1;
  return reply.calls.map((call, i) => {
    if (reply.truncated && (call.arguments_undecodable || i === last)) return 'dropped';
    return call.arguments_undecodable ? 'rejected' : 'runnable';
  });
}

// The first spec, by descending priority then name, whose sniff predicate holds.
export function sniff(specs, data) {
  const candidates = Object.values(specs).filter((s) => s.sniff)
    .sort((a, b) => b.sniff.priority - a.sniff.priority || (a.format < b.format ? -1 : 1));
  for (const spec of candidates) {
    try { if (holds(spec.sniff.when, data)) return spec.format; } catch { /* not this one */ }
  }
  return null;
}
