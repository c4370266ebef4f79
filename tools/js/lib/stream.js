// The stream accumulator of specs/README.md §9: events rebuild a read-equivalent document,
// slots track the items being streamed, and read() (§1.3) runs on the document at the end.
// Every fault is kept (§9.5): a failed accumulator raises its failure again, as a fresh error.
import { holds } from './expression.js';
import { loads, isObject } from './json.js';
import { fail, getPath, setPath, partOf } from './stream_part.js';
import { framingMethods, MAX_EVENT_SIZE } from './stream_framing.js';
import { operationMethods } from './stream_ops.js';
import { errorFormat, finishedReply, sniffOrder, whatItIs } from './stream_identify.js';
import { normalized } from './normalize.js';
import { providerText } from './provider_text.js';
import { read, visit, withNested, emptyReply, fates, ToolwireError } from './interpreter.js';

const copy = (v) => (v === undefined ? undefined : structuredClone(v));

const matches = (m, type, event) => (!m.events || m.events.includes(type)) && (!m.when || holds(m.when, event));
// An error or refuse entry matches only by what it gives: with neither events nor when, nothing.
const guards = (m, type, event) => (m.events !== null || m.when !== null) && matches(m, type, event);
const SENTINEL_MAX = 256;

export class Accumulator {
  constructor(specs, format = null, { maxEventSize = MAX_EVENT_SIZE } = {}) {
    this.specs = specs; this.spec = null; this.part = null;
    this.document = undefined; this.identity = null; this.slots = []; this.pieces = new Map();
    this.lists = new Map(); this.atSlots = new Map();
    this.complete = false; this.ended = false; this.stopped = false; this.closed = false; this.failure = null;
    this.events = 0; this.lastType = null; this.handed = [];
    this.held = new Map(); this.deferred = []; this.cut = new Set(); this.fixed = null;
    this.opened = null; this.closedNow = null;
    this.maxEventSize = maxEventSize;
    this.framing = null; this.parts = []; this.size = 0; this.pendingCR = false; this.endsLF = false; this.frameError = null;
    this.heldBytes = null; this.started = false;
    if (format !== null) this.bind(format);
  }

  bind(format) {
    const spec = this.specs[format];
    if (!spec) throw fail('unknown_format', `no spec ${format}`, { format });
    this.spec = spec; this.part = partOf(spec);
    if (!this.part) throw fail('unsupported_stream', `${format} has no stream part`, { format });
  }

  failed(error) { if (!this.failure) this.failure = error; return error; }

  // §9.5 step 1: the kept failure, raised as a fresh error with the same code and data.
  again() {
    const error = new ToolwireError(this.failure.code, this.failure.message, { ...this.failure, cause: this.failure });
    return error;
  }

  refuseInput() {
    if (this.failure) throw this.again();
    if (this.closed) throw this.failed(fail('malformed_stream', 'an event after the input was closed', { format: this.spec && this.spec.format, event_index: this.events }));
  }

  // §9.5: one event; returns the updates it made ready. Every failure is kept.
  feed(event, sseName = null) {
    this.refuseInput();
    try { return this.feedOne(event, sseName); } catch (error) {
      if (error instanceof ToolwireError) this.failed(error);
      throw error;
    }
  }

  isSentinel(event) {
    if (typeof event !== 'string' || event.length > SENTINEL_MAX) return false;
    const sentinel = this.part ? this.part.sentinel : '[DONE]';
    return sentinel !== null && event.trim() === sentinel;
  }

  feedOne(event, sseName) {
    if (this.isSentinel(event)) return this.sentinelSeen();
    if (this.stopped) throw fail('malformed_stream', 'an event after the sentinel', { event_index: this.events });
    const index = this.events++;
    let body = event;
    if (typeof body === 'string') {
      try { body = loads(body); } catch {
        const sse = /^\s*(?:data|event|id|retry)?:/.test(body) ? ': it is SSE text, not an event: the raw stream goes to feedBytes (readStream takes it as bytes), an event as its data\'s JSON' : '';
        throw fail('malformed_stream', `an event is not JSON${sse}`, { event_index: index });
      }
    }
    if (!isObject(body)) throw fail('malformed_stream', 'an event must be a JSON object', { event_index: index });
    if (!this.spec) this.sniff(body, index, sseName);
    body = this.unwrapped(body, index);
    if (body === null) return []; // §9.5 step 3: an SDK helper's derived event, skipped
    const { part } = this;
    const format = this.spec.format;
    let type;
    try { type = part.event_type ? part.event_type.evaluate(body) : null; } catch (e) { throw fail('malformed_stream', e.message, { event_index: index, format }); }
    if (type === null) type = sseName;
    this.lastType = type;
    if (part.error && guards(part.error, type, body)) {
      const said = String(part.error.message ? part.error.message.evaluate(body) : 'stream error');
      throw new ToolwireError('stream_error', providerText(said), {
        reason: said, error_message: said, format, error_code: part.error.code ? part.error.code.evaluate(body) : null,
        event_index: index,
      });
    }
    for (const refusal of part.refuse) {
      if (guards(refusal, type, body)) throw fail('unsupported_stream', refusal.reason, { format, event_index: index });
    }
    let fits = true;
    if (part.shape) { try { fits = holds(part.shape, body); } catch { fits = false; } }
    if (!fits) {
      const verdict = whatItIs(this.specs, this.spec, body);
      throw fail('malformed_stream', verdict.reason, { format, event_index: index, looks_like: verdict.looks_like, finished_reply: verdict.finished_reply });
    }
    const wasComplete = this.complete;
    this.opened = []; this.closedNow = [];
    for (const rule of part.rules) {
      try {
        if (!matches(rule, type, body)) continue;
        const each = rule.each ? rule.each.evaluate(body) : body;
        const fragments = rule.each ? (each === null ? [] : Array.isArray(each) ? each : [each]) : [body];
        for (const fragment of fragments) this.run(rule, fragment);
      } catch (error) {
        const failure = error instanceof ToolwireError ? error : fail('malformed_stream', error.message);
        failure.rule = rule.name; failure.event_index = index; failure.format = format;
        if (failure.code !== 'malformed_stream') failure.code = 'malformed_stream';
        throw failure;
      }
    }
    if (wasComplete) { this.keepFixed(index); return []; } // §9.3: the reply is fixed at completion
    const completing = this.ended || (part.complete && this.document !== undefined && holds(part.complete, this.document));
    const updates = this.afterEvent();
    if (completing) updates.push(...this.completeNow(false));
    this.handed.push(...updates);
    return updates;
  }

  // §9.5 step 3: the first event binds the format, by descending priority, then name; or the
  // provider whose failure event it is (step 5 then fails the stream with stream_error).
  sniff(body, index, sseName) {
    const found = sniffOrder(this.specs).find(([, , p]) => { try { return holds(p.sniff.when, body); } catch { return false; } });
    if (found) { this.bind(found[0]); return; }
    const failed = errorFormat(this.specs, body, sseName);
    if (failed) { this.bind(failed); return; }
    const verdict = finishedReply(this.specs, null, body);
    if (verdict) throw fail('malformed_stream', verdict.reason, { event_index: index, format: null, looks_like: verdict.looks_like, finished_reply: true });
    throw fail('unknown_format', 'no stream format recognises the first event');
  }

  // §9.5 step 3, §9.11: the event inside an SDK's envelope (`unwrap`; null where the envelope
  // holds none: a helper's derived event, skipped), then keyed as the wire by the spec's
  // `normalize` aliases where its `detect` holds.
  unwrapped(body, index) {
    const { unwrap } = this.part;
    const format = this.spec.format;
    let event = body;
    try {
      if (unwrap && holds(unwrap.when, event)) event = unwrap.value.evaluate(event);
    } catch (e) { throw fail('malformed_stream', `stream.unwrap failed: ${e.message}`, { event_index: index, format }); }
    if (event === null) return null;
    if (!isObject(event)) throw fail('malformed_stream', 'the event inside the envelope (stream.unwrap) is not an object', { event_index: index, format });
    try { return normalized(this.spec, event); } catch (e) { throw fail('malformed_stream', e.message, { event_index: index, format }); }
  }

  // §9.10, §9.6: the sentinel stops the stream; with sentinel_completes it completes it.
  sentinelSeen() {
    if (this.stopped) throw fail('malformed_stream', 'a second sentinel');
    this.stopped = true;
    if (!this.part || !this.part.sentinelCompletes || this.complete || this.document === undefined) return [];
    const updates = this.completeNow(true);
    this.handed.push(...updates);
    return updates;
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

  holdSlot(slot) {
    const list = slot.at || slot.list;
    if (!this.held.has(list)) this.held.set(list, []);
    this.held.get(list).push(slot);
  }

  // §9.6: what this event's closed and created slots release, in creation order.
  afterEvent() {
    const released = [];
    for (const slot of this.closedNow) {
      if (this.part.ready === 'at_close') released.push(slot); else this.holdSlot(slot);
    }
    if (this.part.ready === 'hold_last') {
      for (const opened of this.opened) {
        const held = this.held.get(opened.at || opened.list);
        if (!held || !held.length) continue;
        released.push(...held.filter((s) => s.order < opened.order));
        this.held.set(opened.at || opened.list, held.filter((s) => s.order >= opened.order));
      }
    }
    this.opened = null; this.closedNow = null;
    const updates = [];
    for (const slot of released.sort((a, b) => a.order - b.order)) {
      const reply = this.classify(slot);
      if (reply.calls.some((c) => c.arguments_undecodable)) { this.deferred.push(slot); continue; } // fate unknown yet
      slot.released = true;
      slot.handed = JSON.stringify(spell(reply).map(value));
      updates.push(...spell(reply));
    }
    return updates;
  }

  // §9.5 step 9, §9.6: completion closes what ends with the stream and releases the rest.
  completeNow(atSentinel) {
    this.complete = true;
    for (const slot of this.slots) {
      if (slot.open && !this.part.closing.has(slot.list)) { this.closeSlot(slot, null); this.holdSlot(slot); }
    }
    const document = this.snapshot();
    for (const slot of this.rebound || []) { // a terminal response never changes what was handed out
      if (slot.handed !== undefined && slot.handed !== JSON.stringify(spell(this.classify(slot)).map(value))) {
        this.complete = false; // the event that would complete the stream failed (§9.5)
        throw fail('malformed_stream', `the terminal response changes ${slot.list}[${slot.pos}], an item already handed out`);
      }
    }
    const truncated = this.spec.truncated ? holds(this.spec.truncated, document) : false;
    const remaining = [...this.deferred, ...[...this.held.values()].flat()].sort((a, b) => a.order - b.order);
    this.deferred = []; this.held = new Map();
    let last = null;
    if (truncated) for (let i = this.slots.length - 1; i >= 0 && !last; i--) if (this.classify(this.slots[i]).calls.length) last = this.slots[i];
    const updates = [];
    for (const slot of remaining) {
      const reply = this.classify(slot);
      slot.released = true;
      const undecodable = reply.calls.some((c) => c.arguments_undecodable);
      if (reply.calls.length && truncated && (slot === last || undecodable)) continue; // dropped
      if (reply.calls.length && atSentinel && undecodable) { this.cut.add(slot.order); continue; } // cut
      updates.push(...spell(reply));
    }
    const reason = this.spec.finish_reason ? this.spec.finish_reason.evaluate(document) : null;
    const finish = typeof reason === 'string' ? reason : null;
    updates.push({ kind: 'finished', finish_reason: finish, truncated, text: `finished:${finish ?? 'None'}` });
    this.fixed = this.facts();
    return updates;
  }

  // What the reply says beyond its items (§9.3: fixed once the stream completed).
  facts() {
    const document = this.snapshot();
    const truncated = this.spec.truncated ? holds(this.spec.truncated, document) : false;
    const finish = this.spec.finish_reason ? this.spec.finish_reason.evaluate(document) : null;
    const text = this.spec.content ? this.spec.content.evaluate(document) : null;
    return JSON.stringify([finish, truncated, text]);
  }

  keepFixed(index) {
    if (this.facts() !== this.fixed) throw fail('malformed_stream', 'an event after the stream completed changes the reply', { event_index: index, format: this.spec.format });
  }

  snapshot() { for (const slot of this.slots) this.settle(slot); this.settlePieces(); return this.document; }

  // §9.7
  reply(allowIncomplete = false) {
    if (!this.failure && !this.closed) { try { this.closeInput(); } catch (e) { if (!(e instanceof ToolwireError)) throw e; } }
    if (this.failure && !(allowIncomplete && this.failure.code === 'stream_error')) throw this.again();
    if (!this.spec || this.document === undefined) {
      if (allowIncomplete && this.spec) return { ...emptyReply(this.spec), fates: [] };
      throw fail('incomplete_stream', 'the stream ended before it started', { format: this.spec && this.spec.format });
    }
    if (this.complete) return this.flaggedReply();
    if (!allowIncomplete) {
      const error = fail('incomplete_stream', 'the stream ended before its terminal signal', {
        format: this.spec.format, open_slots: this.slots.filter((s) => s.open).length, last_event_type: this.lastType, events: this.events,
      });
      try { error.reply = this.flaggedReply(); } catch { error.reply = null; }
      throw error;
    }
    return this.flaggedReply();
  }

  // read() on the document; each call whose item never closed (or was cut at the sentinel)
  // flagged incomplete, its item finalized as its close would.
  flaggedReply() {
    const flagged = this.slots.filter((s) => s.open || this.cut.has(s.order));
    if (!flagged.length) return read(this.spec, this.snapshot());
    const document = structuredClone(this.snapshot());
    const openAt = new Set();
    for (const slot of flagged) {
      const item = slot.at ? getPath(document, slot.at) : getPath(document, slot.list)[slot.pos];
      if (slot.open) {
        const op = this.closeRuleOf(slot.list);
        const buf = Object.fromEntries(Object.entries(slot.buffers).map(([n, p]) => [n, p.join('')]));
        for (const [path, e] of op ? op.finalize : []) {
          const value = e.evaluate({ item, buf });
          if (value !== null) setPath(item, path, copy(value));
        }
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

// What a handed-out update is, compared (a call by its value, without provenance).
const value = (u) => (u.call ? { kind: u.kind, name: u.call.name, arguments: u.call.arguments, id: u.call.id, undecodable: u.call.arguments_undecodable } : { text: u.text });
const spell = (reply) => [
  ...reply.calls.map((c) => ({ kind: 'call', call: c, text: `call:${c.id || c.name}` })),
  ...reply.server_calls.map((s) => ({ kind: 'server_call', server_call: s, text: `server_call:${s.type}` })),
  ...reply.refused.map((r) => ({ kind: 'refused', item_type: r.item_type, reason: r.reason, text: `refused:${r.item_type}` })),
  ...reply.unknown.map((u) => ({ kind: 'unknown', item_type: u.item_type, text: `unknown:${u.item_type}` })),
];

Object.assign(Accumulator.prototype, framingMethods, operationMethods);
