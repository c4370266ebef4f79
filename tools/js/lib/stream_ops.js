// The eight operations of specs/README.md §9.3 on the accumulator's document and slots,
// mixed into the Accumulator (stream.js): `run` applies one rule's operation to one fragment.
import { isObject } from './json.js';
import { fail, sameJson, getPath, setPath } from './stream_part.js';

const blank = (v) => v === null || v === undefined || v === '';
const copy = (v) => (v === undefined ? undefined : structuredClone(v));
// `path` is `at` or below it (a member or an index step further).
const under = (path, at) => path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`);

export const operationMethods = {
  run(rule, subject) {
    const op = rule.op;
    if (op.name === 'init') return this.init(op, subject);
    if (this.document === undefined) throw fail('malformed_stream', 'an event before the stream\'s start');
    const changes = ['open', 'extend', 'update', 'close'].includes(op.name);
    if (this.complete && changes) throw fail('malformed_stream', `${op.name} after the stream completed`);
    this[op.name](op, subject);
  },

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
  },

  set(op, subject) {
    for (const [path, e] of op.set) {
      const value = e.evaluate(subject);
      if (value === null) continue;
      for (const slot of this.slots) for (const field of Object.keys(slot.pending)) if (`${slot.list}[${slot.pos}].${field}` === path) delete slot.pending[field];
      for (const pending of this.pieces.keys()) if (under(pending, path)) this.pieces.delete(pending); // a whole value replaces them
      setPath(this.document, path, copy(value));
    }
  },

  // Document-level string pieces, outside every slot's item; joined when the document is read.
  append(op, subject) {
    for (const [path, e] of op.append) {
      const piece = e.evaluate(subject);
      if (blank(piece)) continue;
      if (typeof piece !== 'string') throw fail('malformed_stream', `an appended piece for ${path} is a ${typeof piece}`);
      const inside = this.slots.find((s) => (s.at ? under(path, s.at) : path.startsWith(`${s.list}[`)));
      if (inside) throw fail('malformed_stream', `${path} is inside an item of ${inside.at || inside.list}: append there with update.append`);
      if (!this.pieces.has(path)) {
        const now = getPath(this.document, path);
        if (!blank(now) && typeof now !== 'string') throw fail('malformed_stream', `${path} holds a ${typeof now}; cannot append`);
        this.pieces.set(path, [now ?? '']);
      }
      this.pieces.get(path).push(piece);
    }
  },

  newSlot(list, pos, key, id, open) {
    const slot = { list, pos, key, id, open, released: false, buffers: {}, pending: {}, order: this.slots.length, at: null };
    if (this.opened) this.opened.push(slot);
    return slot;
  },

  listAt(list) {
    let items = getPath(this.document, list);
    if (items === undefined || items === null) { items = []; setPath(this.document, list, items); }
    if (!Array.isArray(items)) throw fail('malformed_stream', `${list} is not a list`);
    return items;
  },

  itemOf(slot) { return slot.at ? getPath(this.document, slot.at) : getPath(this.document, slot.list)[slot.pos]; },

  open(op, subject) {
    const key = op.key.evaluate(subject);
    if (this.slots.some((s) => s.list === op.list && sameJson(s.key, key))) throw fail('malformed_stream', `key ${JSON.stringify(key)} is open already`);
    const value = op.value.evaluate(subject);
    if (!isObject(value)) throw fail('malformed_stream', 'open needs an object');
    const items = this.listAt(op.list);
    const slot = this.newSlot(op.list, items.length, key, op.id ? op.id.evaluate(subject) : null, true);
    items.push(copy(value));
    this.slots.push(slot);
  },

  // §9.4: the slot an update fragment belongs to.
  find(list, key, id) {
    const mine = this.slots.filter((s) => s.list === list);
    if (!blank(id)) { const byId = mine.find((s) => sameJson(s.id, id)); if (byId) return byId; }
    if (key !== null) {
      const byKey = mine.filter((s) => sameJson(s.key, key)).pop();
      return byKey && (blank(byKey.id) || blank(id) || sameJson(byKey.id, id)) ? byKey : null;
    }
    return blank(id) ? mine[mine.length - 1] || null : null;
  },

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
  },

  current(slot, item, path) { return slot.pending[path] ? slot.pending[path].join('') : getPath(item, path); },
  write(slot, item, path, value) { delete slot.pending[path]; setPath(item, path, copy(value)); },

  // Join a slot's pending pieces into its item.
  settle(slot) {
    const item = this.itemOf(slot);
    for (const [path, pieces] of Object.entries(slot.pending)) setPath(item, path, pieces.join(''));
    slot.pending = {};
  },

  // Join the document-level pieces in place; later appends go on from the joined text.
  settlePieces() {
    for (const [path, pieces] of this.pieces) {
      const joined = pieces.join('');
      this.pieces.set(path, [joined]);
      setPath(this.document, path, joined);
    }
  },

  closeRuleOf(list) {
    const rule = this.part.rules.find((r) => r.op.name === 'close' && r.op.list === list);
    return rule ? rule.op : null;
  },

  closeSlot(slot, op, value) {
    if (value !== undefined) {
      const items = getPath(this.document, slot.list);
      items[slot.pos] = copy(value); slot.pending = {}; slot.buffers = {};
    } else this.settle(slot);
    this.finalize(slot, op);
    slot.open = false;
    if (this.part.ready === 'at_close') this.release(slot);
  },

  finalize(slot, op) {
    if (!op || !op.finalize.length) return;
    const item = this.itemOf(slot);
    const buf = Object.fromEntries(Object.entries(slot.buffers).map(([n, p]) => [n, p.join('')]));
    for (const [path, e] of op.finalize) {
      const value = e.evaluate({ item, buf });
      if (value !== null) setPath(item, path, copy(value));
    }
  },

  close(op, subject) {
    const key = op.key.evaluate(subject);
    const slot = this.slots.filter((s) => s.list === op.list && sameJson(s.key, key)).pop();
    if (!slot) return;
    if (!slot.open) throw fail('malformed_stream', `key ${JSON.stringify(key)} is closed already`);
    let value;
    if (op.value) { value = op.value.evaluate(subject); if (!isObject(value)) throw fail('malformed_stream', 'close value must be an object'); }
    this.closeSlot(slot, op, value);
  },

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
  },

  end(op, subject) {
    if (this.ended) throw fail('malformed_stream', 'a second end');
    if (op.value) {
      const value = op.value.evaluate(subject);
      if (!isObject(value)) throw fail('malformed_stream', 'end value must be an object');
      for (const slot of this.slots) this.settle(slot);
      this.pieces.clear(); // the terminal response is authoritative
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
  },
};
