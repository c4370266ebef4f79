// Streams (specs/README.md §9): events or raw bytes in, the Reply read() gives out, and the calls
// handed out as soon as the format proves them complete, never on a guess.
import { Accumulator as Engine } from '../lib/stream.js';
import { finishedReply } from '../lib/stream_identify.js';
import { fail } from '../lib/stream_part.js';
import { StreamUpdate, Reply } from './values.js';

const encoder = new TextEncoder();

export class Accumulator {
  #engine;

  // format: a wire format, or null to sniff it from the first event.
  constructor(format = null, registry) {
    this.#engine = new Engine(registry.specs(), format);
  }

  get format() { return this.#engine.spec ? this.#engine.spec.format : null; }
  get complete() { return this.#engine.complete; }

  // One decoded event (an object, or its JSON text): the updates it made ready.
  feed(event) { return this.#engine.feed(event).map((u) => new StreamUpdate(u)); }

  // Raw SSE or NDJSON bytes (a Uint8Array, or text), cut anywhere.
  feedBytes(chunk) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    if (!(bytes instanceof Uint8Array)) throw new TypeError('feedBytes takes a Uint8Array or a string');
    return this.#engine.feedBytes(bytes).map((u) => new StreamUpdate(u));
  }

  // The end of the raw input: what its last line made ready.
  close() { return this.#engine.closeInput().map((u) => new StreamUpdate(u)); }

  // The Reply (§9.7); an unfinished stream throws incomplete_stream unless allowIncomplete,
  // which marks its unfinished calls incomplete.
  reply({ allowIncomplete = false } = {}) { return new Reply(this.#engine.reply(allowIncomplete)); }
}

const isBytes = (x) => x instanceof Uint8Array;
const LF = 10; const CR = 13;

// What readStream was given, fed (specs/README.md §9.10, §9.11): events (objects, JSON text) go
// to feed, byte chunks (Uint8Array) to feedBytes; `lineEnds` remembers whether a chunk held a
// line break (null: no chunk came), for the error of lines whose line ends were cut off.
class Feeding {
  constructor(registry, format) { this.acc = new Accumulator(format, registry); this.lineEnds = null; }

  piece(piece) {
    if (!isBytes(piece)) return this.acc.feed(piece);
    this.lineEnds = this.lineEnds || piece.includes(LF) || piece.includes(CR);
    return this.acc.feedBytes(piece);
  }

  reply() {
    this.acc.close();
    try { return this.acc.reply(); } catch (error) {
      if (error.code === 'incomplete_stream' && this.lineEnds === false && !error.events) {
        throw fail('malformed_stream', "the stream's bytes hold no line break, so no event in them ever ended: lines with their line ends cut off go to readStream as text or decoded events, not as bytes; bytes are the raw stream", { format: this.acc.format, cause: error });
      }
      throw error;
    }
  }
}

// One object given as the whole source is no stream (iterating it fails, or feeds its keys):
// refused, named as a finished reply where it is one.
function notAStream(registry, format, source) {
  const specs = registry.specs();
  let verdict = null;
  try { verdict = finishedReply(specs, format ? specs[format] : null, source); } catch { verdict = null; }
  if (verdict) {
    return fail('malformed_stream', `readStream was given one object: a finished ${verdict.looks_like} reply, not a stream of events: read it with read()`,
      { format, looks_like: verdict.looks_like, finished_reply: true });
  }
  return fail('malformed_stream', "readStream was given one object, not a stream of events: give an iterable of events ([event] for one), or the stream's bytes", { format });
}

// The whole stream as bytes or text is one chunk; an object that is no iterable is refused.
function whole(feeding, registry, format, source, iterator) {
  if (isBytes(source) || typeof source === 'string') {
    feeding.piece(typeof source === 'string' ? encoder.encode(source) : source);
    return true;
  }
  if (source === null || typeof source !== 'object' || !(iterator in source)) throw notAStream(registry, format, source);
  return false;
}

// Every event (objects or JSON text) or byte chunk (Uint8Array) of an iterable, or the stream's
// bytes or text whole, then the Reply.
export function readStreamWith(registry, format, source) {
  const feeding = new Feeding(registry, format);
  if (!whole(feeding, registry, format, source, Symbol.iterator)) for (const piece of source) feeding.piece(piece);
  return feeding.reply();
}

// The same from an async iterable or a ReadableStream (a fetch() body).
export async function readStreamAsyncWith(registry, format, source) {
  const feeding = new Feeding(registry, format);
  if (source && typeof source.getReader === 'function' && !(Symbol.asyncIterator in source)) {
    const reader = source.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      feeding.piece(value);
    }
  } else {
    const iterator = source && typeof source === 'object' && Symbol.asyncIterator in source ? Symbol.asyncIterator : Symbol.iterator;
    if (!whole(feeding, registry, format, source, iterator)) for await (const piece of source) feeding.piece(piece);
  }
  return feeding.reply();
}

export { Reply };
