// The stream accumulator of specs/README.md §9: events rebuild a read-equivalent document,
// slots track the items being streamed, and read() (§1.3) runs on the document at the end.
import { holds } from './expression.js';
import { loads, isObject } from './json.js';
import { fail, getPath, setPath, partOf } from './stream_part.js';
import { framingMethods } from './stream_framing.js';
import { operationMethods } from './stream_ops.js';
import { normalized } from './normalize.js';
import { read, visit, withNested, emptyReply, fates, ToolwireError } from './interpreter.js';

const copy = (v) => (v === undefined ? undefined : structuredClone(v));

const matches = (m, type, event) => (!m.events || m.events.includes(type)) && (!m.when || holds(m.when, event));
// An error or refuse entry matches only by what it gives: with neither events nor when, nothing.
const guards = (m, type, event) => (m.events !== null || m.when !== null) && matches(m, type, event);

export class Accumulator {
  constructor(specs, format = null) {
    this.specs = specs; this.spec = null; this.part = null;
    this.document = undefined; this.identity = null; this.slots = []; this.pieces = new Map();
    this.complete = false; this.ended = false; this.stopped = false; this.failure = null;
    this.events = 0; this.lastType = null; this.handed = [];
    this.framing = null; this.buffer = ''; this.pendingCR = false; this.sse = { data: [], name: null };
    this.decoder = new TextDecoder('utf-8', { ignoreBOM: false }); this.started = false;
    if (format !== null) this.bind(format);
  }

  bind(format) {
    const spec = this.specs[format];
    if (!spec) throw fail('unknown_format', `no spec ${format}`, { format });
    this.spec = spec; this.part = partOf(spec);
    if (!this.part) throw fail('unsupported_stream', `${format} has no stream part`, { format });
  }

  // §9.5: one event; returns the updates it made ready.
  feed(event, sseName = null) {
    if (this.failure) throw this.failure;
    if (this.stopped) throw this.failed(fail('malformed_stream', 'an event after the sentinel'));
    const index = this.events++;
    let body = event;
    if (typeof body === 'string') {
      try { body = loads(body); } catch { throw this.failed(fail('malformed_stream', 'an event is not JSON', { event_index: index })); }
    }
    if (!isObject(body)) throw this.failed(fail('malformed_stream', 'an event must be a JSON object', { event_index: index }));
    if (!this.spec) this.sniff(body);
    body = this.unwrapped(body, index);
    const { part } = this;
    let type;
    try { type = part.event_type ? part.event_type.evaluate(body) : null; } catch (e) { throw this.failed(fail('malformed_stream', e.message, { event_index: index })); }
    if (type === null) type = sseName;
    this.lastType = type;
    if (part.error && guards(part.error, type, body)) {
      const error = fail('stream_error', String(part.error.message ? part.error.message.evaluate(body) : 'stream error'), {
        format: this.spec.format, error_code: part.error.code ? part.error.code.evaluate(body) : null, event_index: index,
      });
      error.error_message = error.message;
      throw this.failed(error);
    }
    for (const refusal of part.refuse) {
      if (guards(refusal, type, body)) throw this.failed(fail('unsupported_stream', refusal.reason, { format: this.spec.format, event_index: index }));
    }
    this.released = []; this.opened = [];
    for (const rule of part.rules) {
      try {
        if (!matches(rule, type, body)) continue;
        const each = rule.each ? rule.each.evaluate(body) : body;
        const fragments = rule.each ? (each === null ? [] : Array.isArray(each) ? each : [each]) : [body];
        for (const fragment of fragments) this.run(rule, fragment);
      } catch (error) {
        const failure = error instanceof ToolwireError ? error : fail('malformed_stream', error.message);
        failure.rule = rule.name; failure.event_index = index; failure.format = this.spec.format;
        if (failure.code !== 'malformed_stream') failure.code = 'malformed_stream';
        throw this.failed(failure);
      }
    }
    let finished = false;
    if (!this.complete && (this.ended || (part.complete && this.document !== undefined && holds(part.complete, this.document)))) {
      this.complete = true; finished = true;
      for (const slot of this.slots) if (slot.open) this.closeSlot(slot, this.closeRuleOf(slot.list));
    }
    return this.handOut(finished);
  }

  failed(error) { this.failure = error; return error; }

  // §9.5 step 3: the first event binds the format, by descending priority, then name.
  sniff(body) {
    const candidates = Object.entries(this.specs).map(([name, s]) => [name, partOf(s)])
      .filter(([, p]) => p && p.sniff).sort(([a, p], [b, q]) => q.sniff.priority - p.sniff.priority || (a < b ? -1 : 1));
    const found = candidates.find(([, p]) => { try { return holds(p.sniff.when, body); } catch { return false; } });
    if (!found) throw this.failed(fail('unknown_format', 'no stream format recognises the first event'));
    this.bind(found[0]);
  }

  // §9.5 step 3, §9.11: the event inside an SDK's envelope (`unwrap`), then keyed as the wire
  // by the spec's `normalize` aliases where its `detect` holds.
  unwrapped(body, index) {
    const { unwrap } = this.part;
    let event = body;
    try {
      if (unwrap && holds(unwrap.when, event)) event = unwrap.value.evaluate(event);
    } catch (e) { throw this.failed(fail('malformed_stream', `stream.unwrap failed: ${e.message}`, { event_index: index, format: this.spec.format })); }
    if (!isObject(event)) throw this.failed(fail('malformed_stream', 'the event inside the envelope (stream.unwrap) is not an object', { event_index: index, format: this.spec.format }));
    try { return normalized(this.spec, event); } catch (e) { throw this.failed(fail('malformed_stream', e.message, { event_index: index, format: this.spec.format })); }
  }


  // A slot's items classified as read() classifies them (§9.6); refusals collected.
  classify(slot) {
    this.settle(slot);
    const source = this.spec.items.find((s) => s.select.source === (slot.at || slot.list));
    const reply = emptyReply(this.spec); const refusals = [];
    const strict = this.spec.unknown_items === 'refuse';
    if (source) for (const walked of withNested(source, this.itemOf(slot), slot.pos)) visit(this.spec, reply, refusals, walked, strict);
    return reply;
  }

  release(slot) { if (!slot.released) { slot.released = true; this.released.push(slot); } }

  // §9.6: what this event made ready, in creation order, then `finished`.
  handOut(finished) {
    const updates = [];
    if (this.part.ready === 'hold_last') { // after the event: each slot it created releases the held ones before it
      for (const opened of this.opened) {
        for (const s of this.slots) if (s.list === opened.list && s.order < opened.order && !s.open) this.release(s);
      }
    }
    this.opened = null;
    const spell = (reply) => [
      ...reply.calls.map((c) => ({ kind: 'call', call: c, text: `call:${c.id || c.name}` })),
      ...reply.server_calls.map((s) => ({ kind: 'server_call', server_call: s, text: `server_call:${s.type}` })),
      ...reply.refused.map((r) => ({ kind: 'refused', item_type: r.item_type, reason: r.reason, text: `refused:${r.item_type}` })),
      ...reply.unknown.map((u) => ({ kind: 'unknown', item_type: u.item_type, text: `unknown:${u.item_type}` })),
    ];
    let truncated = false;
    if (finished) {
      truncated = this.spec.truncated ? holds(this.spec.truncated, this.snapshot()) : false;
      const held = this.slots.filter((s) => !s.released && !s.open);
      const yieldsCall = held.filter((s) => this.classify(s).calls.length);
      const last = truncated ? yieldsCall[yieldsCall.length - 1] : null;
      for (const slot of held) {
        const reply = this.classify(slot);
        if (truncated && (slot === last || reply.calls.some((c) => c.arguments_undecodable))) { slot.released = true; continue; }
        this.release(slot);
      }
    }
    for (const slot of [...this.released].sort((a, b) => a.order - b.order)) {
      const reply = this.classify(slot);
      if (!this.complete && reply.calls.some((c) => c.arguments_undecodable)) { slot.released = false; continue; } // fate unknown yet
      updates.push(...spell(reply));
    }
    this.released = [];
    if (finished) {
      const document = this.snapshot();
      const reason = this.spec.finish_reason ? this.spec.finish_reason.evaluate(document) : null;
      const finish = typeof reason === 'string' ? reason : null;
      updates.push({ kind: 'finished', finish_reason: finish, truncated, text: `finished:${finish ?? 'None'}` });
    }
    this.handed.push(...updates);
    return updates;
  }

  snapshot() { for (const slot of this.slots) this.settle(slot); this.settlePieces(); return this.document; }

  // §9.7
  reply(allowIncomplete = false) {
    this.closeInput();
    if (this.failure && !(allowIncomplete && this.failure.code === 'stream_error')) throw this.failure;
    if (!this.spec || this.document === undefined) {
      if (allowIncomplete && this.spec) return { ...emptyReply(this.spec), fates: [] };
      throw fail('incomplete_stream', 'the stream ended before it started', { format: this.spec && this.spec.format });
    }
    if (this.complete) return read(this.spec, this.snapshot());
    if (!allowIncomplete) {
      const error = fail('incomplete_stream', 'the stream ended before its terminal signal', {
        format: this.spec.format, open_slots: this.slots.filter((s) => s.open).length, last_event_type: this.lastType, events: this.events,
      });
      try { error.reply = this.incompleteReply(); } catch { error.reply = null; }
      throw error;
    }
    return this.incompleteReply();
  }

  incompleteReply() {
    const document = structuredClone(this.snapshot());
    const openAt = new Set();
    for (const slot of this.slots.filter((s) => s.open)) {
      const item = slot.at ? getPath(document, slot.at) : getPath(document, slot.list)[slot.pos];
      const op = this.closeRuleOf(slot.list);
      const buf = Object.fromEntries(Object.entries(slot.buffers).map(([n, p]) => [n, p.join('')]));
      for (const [path, e] of op ? op.finalize : []) {
        const value = e.evaluate({ item, buf });
        if (value !== null) setPath(item, path, copy(value));
      }
      openAt.add(slot.at || `${slot.list}[${slot.pos}]`);
    }
    let reply;
    try { reply = read(this.spec, document); } catch (error) { if (!error.reply) throw error; reply = error.reply; }
    reply.calls.forEach((call, i) => { if (openAt.has(reply.call_records[i].location)) call.incomplete = true; });
    reply.fates = fates(reply);
    return reply;
  }

}

Object.assign(Accumulator.prototype, framingMethods, operationMethods);
