// The stream accumulator of specs/README.md §9: events rebuild a read-equivalent document,
// slots track the items being streamed, and read() (§1.3) runs on the document at the end.
import { holds } from './expression.js';
import { loads, isObject } from './json.js';
import { fail, sameJson, getPath, setPath, partOf } from './stream_part.js';
import { framingMethods } from './stream_framing.js';
import { read, visit, withNested, emptyReply, fates, ToolwireError } from './interpreter.js';

const blank = (v) => v === null || v === undefined || v === '';
const copy = (v) => (v === undefined ? undefined : structuredClone(v));

const matches = (m, type, event) => (!m.events || m.events.includes(type)) && (!m.when || holds(m.when, event));

export class Accumulator {
  constructor(specs, format = null) {
    this.specs = specs; this.spec = null; this.part = null;
    this.document = undefined; this.identity = null; this.slots = [];
    this.complete = false; this.ended = false; this.stopped = false; this.failure = null;
    this.events = 0; this.lastType = null; this.handed = [];
    this.framing = null; this.buffer = ''; this.pendingCR = false; this.sse = { data: [], name: null };
    this.decoder = new TextDecoder('utf-8', { ignoreBOM: false }); this.started = false;
    if (format !== null) this.bind(format);
  }

  bind(format) {
    const spec = this.specs[format];
    if (!spec) throw fail('unknown_format', `no spec ${format}`, { format });
    this.spec = spec; this.part = partOf(spec, this.specs);
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
    if (!this.spec) {
      const candidates = Object.entries(this.specs).map(([name, s]) => [name, partOf(s, this.specs)])
        .filter(([, p]) => p && p.sniff).sort(([a, p], [b, q]) => q.sniff.priority - p.sniff.priority || (a < b ? -1 : 1));
      const found = candidates.find(([, p]) => { try { return holds(p.sniff.when, body); } catch { return false; } });
      if (!found) throw this.failed(fail('unknown_format', 'no stream format recognises the first event'));
      this.bind(found[0]);
    }
    const { part } = this;
    let type;
    try { type = part.event_type ? part.event_type.evaluate(body) : null; } catch (e) { throw this.failed(fail('malformed_stream', e.message, { event_index: index })); }
    if (type === null) type = sseName;
    this.lastType = type;
    if (part.error && matches(part.error, type, body)) {
      const error = fail('stream_error', String(part.error.message ? part.error.message.evaluate(body) : 'stream error'), {
        format: this.spec.format, error_code: part.error.code ? part.error.code.evaluate(body) : null, event_index: index,
      });
      error.error_message = error.message;
      throw this.failed(error);
    }
    for (const refusal of part.refuse) {
      if (matches(refusal, type, body)) throw this.failed(fail('unsupported_stream', refusal.reason, { format: this.spec.format, event_index: index }));
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

  run(rule, subject) {
    const op = rule.op;
    if (op.name === 'init') return this.init(op, subject);
    if (this.document === undefined) throw fail('malformed_stream', 'an event before the stream\'s start');
    const changes = ['open', 'extend', 'update', 'close'].includes(op.name);
    if (this.complete && changes) throw fail('malformed_stream', `${op.name} after the stream completed`);
    this[op.name](op, subject);
  }

  init(op, subject) {
    const identity = op.identity ? op.identity.evaluate(subject) : null;
    if (this.document !== undefined) {
      if (op.identity && !sameJson(identity, this.identity)) throw fail('malformed_stream', 'two responses spliced into one stream');
      return;
    }
    const value = op.value.evaluate(subject);
    if (!isObject(value)) throw fail('malformed_stream', 'init needs an object');
    this.document = copy(value); this.identity = identity;
    for (const list of op.slots) {
      const items = getPath(this.document, list);
      if (Array.isArray(items)) items.forEach((item, pos) => this.slots.push(this.newSlot(list, pos, pos, null, false)));
    }
  }

  set(op, subject) {
    for (const [path, e] of op.set) {
      const value = e.evaluate(subject);
      if (value === null) continue;
      for (const slot of this.slots) for (const field of Object.keys(slot.pending)) if (`${slot.list}[${slot.pos}].${field}` === path) delete slot.pending[field];
      setPath(this.document, path, copy(value));
    }
  }

  newSlot(list, pos, key, id, open) {
    const slot = { list, pos, key, id, open, released: false, buffers: {}, pending: {}, order: this.slots.length, at: null };
    if (this.opened) this.opened.push(slot);
    return slot;
  }

  listAt(list) {
    let items = getPath(this.document, list);
    if (items === undefined || items === null) { items = []; setPath(this.document, list, items); }
    if (!Array.isArray(items)) throw fail('malformed_stream', `${list} is not a list`);
    return items;
  }

  itemOf(slot) { return slot.at ? getPath(this.document, slot.at) : getPath(this.document, slot.list)[slot.pos]; }

  open(op, subject) {
    const key = op.key.evaluate(subject);
    if (this.slots.some((s) => s.list === op.list && sameJson(s.key, key))) throw fail('malformed_stream', `key ${JSON.stringify(key)} is open already`);
    const value = op.value.evaluate(subject);
    if (!isObject(value)) throw fail('malformed_stream', 'open needs an object');
    const items = this.listAt(op.list);
    const slot = this.newSlot(op.list, items.length, key, op.id ? op.id.evaluate(subject) : null, true);
    items.push(copy(value));
    this.slots.push(slot);
  }

  // §9.4: the slot an update fragment belongs to.
  find(list, key, id) {
    const mine = this.slots.filter((s) => s.list === list);
    if (!blank(id)) { const byId = mine.find((s) => sameJson(s.id, id)); if (byId) return byId; }
    if (key !== null) {
      const byKey = mine.filter((s) => sameJson(s.key, key)).pop();
      return byKey && (blank(byKey.id) || blank(id) || sameJson(byKey.id, id)) ? byKey : null;
    }
    return blank(id) ? mine[mine.length - 1] || null : null;
  }

  update(op, subject) {
    const key = op.key ? op.key.evaluate(subject) : null;
    const id = op.id ? op.id.evaluate(subject) : null;
    let slot = op.at ? this.slots.find((s) => s.at === op.at) || null : this.find(op.list, key, id);
    if (!slot) {
      if (!op.create) throw fail('malformed_stream', 'an update for no item');
      const value = op.create.evaluate(subject);
      if (!isObject(value)) throw fail('malformed_stream', 'create needs an object');
      if (op.at) {
        setPath(this.document, op.at, copy(value));
        slot = this.newSlot(op.at, 0, null, blank(id) ? null : id, true); slot.at = op.at;
      } else {
        const items = this.listAt(op.list);
        slot = this.newSlot(op.list, items.length, key, blank(id) ? null : id, true);
        items.push(copy(value));
      }
      this.slots.push(slot);
    }
    if (!slot.open) throw fail('malformed_stream', 'an update of a closed item');
    if (blank(slot.id) && !blank(id)) slot.id = id;
    const item = this.itemOf(slot);
    for (const [path, e] of op.first) {
      const value = e.evaluate(subject);
      if (!blank(value) && blank(this.current(slot, item, path))) this.write(slot, item, path, value);
    }
    for (const [path, e] of op.set) {
      const value = e.evaluate(subject);
      if (value !== null) this.write(slot, item, path, value);
    }
    for (const [path, e] of op.append) {
      const piece = e.evaluate(subject);
      if (blank(piece)) continue;
      if (typeof piece !== 'string') throw fail('malformed_stream', `append of a ${typeof piece} to ${path}`);
      if (!slot.pending[path]) {
        const now = getPath(item, path);
        if (!blank(now) && typeof now !== 'string') throw fail('malformed_stream', `${path} is not a string`);
        slot.pending[path] = [now ?? ''];
      }
      slot.pending[path].push(piece); // joined when the document is read (linear in total)
    }
    for (const [name, e] of op.buffer) {
      const piece = e.evaluate(subject);
      if (blank(piece)) continue;
      if (typeof piece !== 'string') throw fail('malformed_stream', `buffer piece of a ${typeof piece}`);
      (slot.buffers[name] ||= []).push(piece);
    }
  }

  current(slot, item, path) { return slot.pending[path] ? slot.pending[path].join('') : getPath(item, path); }
  write(slot, item, path, value) { delete slot.pending[path]; setPath(item, path, copy(value)); }

  // Join a slot's pending pieces into its item.
  settle(slot) {
    const item = this.itemOf(slot);
    for (const [path, pieces] of Object.entries(slot.pending)) setPath(item, path, pieces.join(''));
    slot.pending = {};
  }

  closeRuleOf(list) {
    const rule = this.part.rules.find((r) => r.op.name === 'close' && r.op.list === list);
    return rule ? rule.op : null;
  }

  closeSlot(slot, op, value) {
    if (value !== undefined) {
      const items = getPath(this.document, slot.list);
      items[slot.pos] = copy(value); slot.pending = {}; slot.buffers = {};
    } else this.settle(slot);
    this.finalize(slot, op);
    slot.open = false;
    if (this.part.ready === 'at_close') this.release(slot);
  }

  finalize(slot, op) {
    if (!op || !op.finalize.length) return;
    const item = this.itemOf(slot);
    const buf = Object.fromEntries(Object.entries(slot.buffers).map(([n, p]) => [n, p.join('')]));
    for (const [path, e] of op.finalize) {
      const value = e.evaluate({ item, buf });
      if (value !== null) setPath(item, path, copy(value));
    }
  }

  close(op, subject) {
    const key = op.key.evaluate(subject);
    const slot = this.slots.filter((s) => s.list === op.list && sameJson(s.key, key)).pop();
    if (!slot) return;
    if (!slot.open) throw fail('malformed_stream', `key ${JSON.stringify(key)} is closed already`);
    let value;
    if (op.value) { value = op.value.evaluate(subject); if (!isObject(value)) throw fail('malformed_stream', 'close value must be an object'); }
    this.closeSlot(slot, op, value);
  }

  extend(op, subject) {
    const value = op.value.evaluate(subject);
    if (value === null || (Array.isArray(value) && !value.length)) return;
    if (!Array.isArray(value)) throw fail('malformed_stream', 'extend needs a list');
    const items = this.listAt(op.list);
    for (const element of value) {
      if (!isObject(element)) throw fail('malformed_stream', 'extend needs objects');
      const slot = this.newSlot(op.list, items.length, items.length, null, false);
      items.push(copy(element)); this.slots.push(slot);
      if (this.part.ready === 'at_close') this.release(slot);
    }
  }

  end(op, subject) {
    if (this.ended) throw fail('malformed_stream', 'a second end');
    if (op.value) {
      const value = op.value.evaluate(subject);
      if (!isObject(value)) throw fail('malformed_stream', 'end value must be an object');
      for (const slot of this.slots) this.settle(slot);
      const streamed = op.keep ? getPath(this.document, op.keep) : undefined;
      this.document = copy(value);
      if (op.keep) {
        const mine = this.slots.filter((s) => s.list === op.keep);
        const now = getPath(this.document, op.keep);
        if ((now === null || now === undefined || (Array.isArray(now) && !now.length)) && mine.length) {
          setPath(this.document, op.keep, streamed);
          this.note = `the terminal ${op.keep} was empty: the streamed items were kept`;
        } else if (Array.isArray(now)) {
          for (let pos = mine.length; pos < now.length; pos++) this.slots.push(this.newSlot(op.keep, pos, pos, null, false));
        }
      }
    }
    this.ended = true;
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
      ...reply.server_calls.map((s) => ({ kind: 'server_call', text: `server_call:${s.type}` })),
      ...reply.refused.map((r) => ({ kind: 'refused', text: `refused:${r.item_type}` })),
      ...reply.unknown.map((u) => ({ kind: 'unknown', text: `unknown:${u.item_type}` })),
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
      updates.push({ kind: 'finished', text: `finished:${typeof reason === 'string' ? reason : 'None'}`, truncated });
    }
    this.handed.push(...updates);
    return updates;
  }

  snapshot() { for (const slot of this.slots) this.settle(slot); return this.document; }

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

Object.assign(Accumulator.prototype, framingMethods);
