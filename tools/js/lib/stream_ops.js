// The eight operations of specs/README.md §9.3 on the accumulator's document and slots,
// mixed into the Accumulator (stream.js): `run` applies one rule's operation to one fragment.
// Slots are found through maps (by key, id, key and id): linear in the calls (§9.2).
import { isObject } from './json.js';
import { fail, sameJson, getPath, setPath } from './stream_part.js';

const blank = (v) => v === null || v === undefined || v === '';
const copy = (v) => (v === undefined ? undefined : structuredClone(v));
// `path` is `at` or below it (a member or an index step further).
const under = (path, at) => path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`);
// A JSON value as a map key that keeps 1 and true apart.
const tag = (v) => `${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}:${JSON.stringify(v)}`;

export const operationMethods = {
  run(rule, subject) {
    const op = rule.op;
    if (op.name === 'init') return this.init(op, subject);
    if (this.document === undefined) throw fail('malformed_stream', 'an event before the stream\'s start');
    const changes = ['open', 'extend', 'update', 'close'].includes(op.name);
    if (this.complete && changes) throw fail('malformed_stream', `${op.name} after the stream completed`);
    this[op.name](op, subject);
  },

  // The index of one slot list (§9.4).
  listIndex(list) {
    let index = this.lists.get(list);
    if (!index) { index = { slots: [], keyed: new Map(), byId: new Map(), byPair: new Map() }; this.lists.set(list, index); }
    return index;
  },

  named(slot) {
    if (blank(slot.id) || slot.at) return;
    const index = this.listIndex(slot.list);
    index.byId.set(tag(slot.id), slot);
    if (slot.key !== null) index.byPair.set(`${tag(slot.key)}|${tag(slot.id)}`, slot);
  },

  // A new slot: in the slot table, its list's index, and the event's created slots (§9.6
  // hold_last: those an open, an update creating or an extend made; an init's and an end's
  // items are closed ones only).
  addSlot(list, pos, key, id, open, created = true) {
    const slot = { list, pos, key, id: blank(id) ? null : id, open, released: false, buffers: {}, pending: {}, sizes: {}, order: this.slots.length, at: null };
    this.slots.push(slot);
    const index = this.listIndex(list);
    index.slots.push(slot);
    if (key !== null) index.keyed.set(tag(key), slot);
    this.named(slot);
    if (created && this.opened) this.opened.push(slot);
    if (!open && this.closedNow) this.closedNow.push(slot);
    return slot;
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
      if (Array.isArray(items)) items.forEach((item, pos) => this.addSlot(list, pos, pos, null, false, false));
    }
  },

  // The slots whose item a document path points into (an index step into their list).
  slotsUnder(path) {
    const out = [];
    for (const [list, index] of this.lists) if (path.startsWith(`${list}[`)) out.push(...index.slots);
    return out;
  },

  set(op, subject) {
    for (const [path, e] of op.set) {
      const value = e.evaluate(subject);
      if (value === null) continue;
      for (const slot of this.slotsUnder(path)) for (const field of Object.keys(slot.pending)) if (`${slot.list}[${slot.pos}].${field}` === path) delete slot.pending[field];
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
      let inside = null;
      for (const [list, index] of this.lists) {
        if (index.slots.length && path.startsWith(`${list}[`)) inside = list;
      }
      for (const at of this.atSlots.keys()) if (under(path, at)) inside = at;
      if (inside) throw fail('malformed_stream', `${path} is inside an item of ${inside}: append there with update.append`);
      if (!this.pieces.has(path)) {
        const now = getPath(this.document, path);
        if (!blank(now) && typeof now !== 'string') throw fail('malformed_stream', `${path} holds a ${typeof now}; cannot append`);
        this.pieces.set(path, [now ?? '']);
      }
      this.pieces.get(path).push(piece);
    }
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
    if (key !== null && this.listIndex(op.list).keyed.has(tag(key))) throw fail('malformed_stream', `key ${JSON.stringify(key)} is open already`);
    const value = op.value.evaluate(subject);
    if (!isObject(value)) throw fail('malformed_stream', 'open needs an object');
    const items = this.listAt(op.list);
    items.push(copy(value));
    this.addSlot(op.list, items.length - 1, key, op.id ? op.id.evaluate(subject) : null, true);
  },

  // §9.4: the slot an update fragment belongs to.
  find(list, key, id) {
    const index = this.listIndex(list);
    if (key !== null) {
      if (!blank(id)) {
        const both = index.byPair.get(`${tag(key)}|${tag(id)}`);
        if (both) return both;
        const keyed = index.keyed.get(tag(key));
        return keyed && blank(keyed.id) ? keyed : null;
      }
      return index.keyed.get(tag(key)) || null;
    }
    if (!blank(id)) return index.byId.get(tag(id)) || null;
    return index.slots[index.slots.length - 1] || null;
  },

  update(op, subject) {
    const key = op.key ? op.key.evaluate(subject) : null;
    const id = op.id ? op.id.evaluate(subject) : null;
    let slot = op.at ? this.atSlots.get(op.at) || null : this.find(op.list, key, id);
    if (!slot) {
      if (!op.create) throw fail('malformed_stream', 'an update for no item');
      const value = op.create.evaluate(subject);
      if (!isObject(value)) throw fail('malformed_stream', 'create needs an object');
      if (op.at) {
        setPath(this.document, op.at, copy(value));
        slot = { list: op.at, pos: 0, key: null, id: blank(id) ? null : id, open: true, released: false, buffers: {}, pending: {}, sizes: {}, order: this.slots.length, at: op.at };
        this.slots.push(slot); this.atSlots.set(op.at, slot);
        if (this.opened) this.opened.push(slot);
      } else {
        const items = this.listAt(op.list);
        items.push(copy(value));
        slot = this.addSlot(op.list, items.length - 1, key, id, true);
      }
    }
    if (this.complete) throw fail('malformed_stream', 'an update after the stream completed');
    if (!slot.open) throw fail('malformed_stream', 'an update of a closed item');
    if (blank(slot.id) && !blank(id)) { slot.id = id; this.named(slot); }
    const item = this.itemOf(slot);
    for (const [path, e] of op.first) {
      const value = e.evaluate(subject);
      if (!blank(value) && blank(this.current(slot, item, path))) this.write(slot, item, path, value);
    }
    for (const [path, e] of op.join) {
      const piece = e.evaluate(subject);
      if (blank(piece)) continue;
      if (typeof piece !== 'string') throw fail('malformed_stream', `a joined piece for ${path} is a ${typeof piece}`);
      this.joinPiece(slot, item, path, piece);
    }
    for (const [path, e] of op.set) {
      const value = e.evaluate(subject);
      if (value !== null) this.write(slot, item, path, value);
    }
    for (const [path, e] of op.append) {
      const piece = e.evaluate(subject);
      if (blank(piece)) continue;
      if (typeof piece !== 'string') throw fail('malformed_stream', `append of a ${typeof piece} to ${path}`);
      this.startPieces(slot, item, path);
      slot.pending[path].push(piece); // joined when the document is read (linear in total)
      delete slot.sizes[path];
    }
    for (const [name, e] of op.buffer) {
      const piece = e.evaluate(subject);
      if (blank(piece)) continue;
      if (typeof piece !== 'string') throw fail('malformed_stream', `buffer piece of a ${typeof piece}`);
      (slot.buffers[name] ||= []).push(piece);
    }
  },

  startPieces(slot, item, path) {
    if (slot.pending[path]) return;
    const now = getPath(item, path);
    if (!blank(now) && typeof now !== 'string') throw fail('malformed_stream', `${path} is not a string`);
    slot.pending[path] = [now ?? ''];
    slot.sizes[path] = (now ?? '').length;
  },

  // §9.3 `join`: a piece equal to the field's whole value so far adds nothing. The value's
  // length is tracked, so the pieces are compared only when they could be equal.
  joinPiece(slot, item, path, piece) {
    this.startPieces(slot, item, path);
    const pieces = slot.pending[path];
    let size = slot.sizes[path];
    if (size === undefined) size = pieces.reduce((n, p) => n + p.length, 0);
    if (size === piece.length) {
      if (pieces.length !== 1) pieces.splice(0, pieces.length, pieces.join(''));
      if (pieces[0] === piece) { slot.sizes[path] = size; return; }
    }
    pieces.push(piece);
    slot.sizes[path] = size + piece.length;
  },

  current(slot, item, path) { return slot.pending[path] ? slot.pending[path].join('') : getPath(item, path); },
  write(slot, item, path, value) { delete slot.pending[path]; delete slot.sizes[path]; setPath(item, path, copy(value)); },

  // Join a slot's pending pieces into its item (they stay, joined, for later pieces).
  settle(slot) {
    const entries = Object.entries(slot.pending);
    if (!entries.length) return;
    const item = this.itemOf(slot);
    for (const [path, pieces] of entries) {
      if (pieces.length !== 1) pieces.splice(0, pieces.length, pieces.join(''));
      setPath(item, path, pieces[0]);
    }
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
      items[slot.pos] = copy(value); slot.pending = {}; slot.buffers = {}; slot.sizes = {};
    } else this.settle(slot);
    this.finalize(slot, op);
    slot.open = false;
    if (this.closedNow) this.closedNow.push(slot);
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
    const slot = key === null ? null : this.listIndex(op.list).keyed.get(tag(key));
    if (!slot) return;
    if (this.complete) throw fail('malformed_stream', 'a close after the stream completed');
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
      items.push(copy(element));
      this.addSlot(op.list, items.length - 1, null, null, false); // no key, no id (§9.4)
    }
  },

  end(op, subject) {
    if (this.ended) throw fail('malformed_stream', 'a second end');
    if (op.value) {
      const value = op.value.evaluate(subject);
      if (!isObject(value)) throw fail('malformed_stream', 'end value must be an object');
      for (const slot of this.slots) { this.settle(slot); slot.pending = {}; slot.sizes = {}; }
      this.pieces.clear(); // the terminal response is authoritative
      const streamed = op.keep ? getPath(this.document, op.keep) : undefined;
      this.document = copy(value);
      if (op.keep) {
        const mine = this.listIndex(op.keep).slots;
        const now = getPath(this.document, op.keep);
        if ((now === null || now === undefined || (Array.isArray(now) && !now.length)) && mine.length) {
          setPath(this.document, op.keep, streamed);
          this.note = `the terminal ${op.keep} was empty: the streamed items were kept`;
        } else if (Array.isArray(now)) {
          this.rebound = mine.filter((s) => s.pos < now.length); // the terminal items replace them
          // Items no event streamed: closed slots with no key and no id (§9.4).
          for (let pos = mine.length; pos < now.length; pos++) this.addSlot(op.keep, pos, null, null, false, false);
        }
      }
    }
    this.ended = true;
  },
};
