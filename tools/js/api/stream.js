// Streams (specs/README.md §9): events or raw bytes in, the Reply read() gives out, and the calls
// handed out as soon as the format proves them complete, never on a guess.
import { Accumulator as Engine } from '../lib/stream.js';
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

function feedOne(acc, piece) { return isBytes(piece) ? acc.feedBytes(piece) : acc.feed(piece); }

// Every event (objects or JSON text) or byte chunk (Uint8Array) of an iterable, then the Reply.
export function readStreamWith(registry, format, source) {
  const acc = new Accumulator(format, registry);
  for (const piece of source) feedOne(acc, piece);
  acc.close();
  return acc.reply();
}

// The same from an async iterable or a ReadableStream (a fetch() body).
export async function readStreamAsyncWith(registry, format, source) {
  const acc = new Accumulator(format, registry);
  if (source && typeof source.getReader === 'function' && !(Symbol.asyncIterator in source)) {
    const reader = source.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      feedOne(acc, value);
    }
  } else {
    for await (const piece of source) feedOne(acc, piece);
  }
  acc.close();
  return acc.reply();
}

export { Reply };
