// Framing raw bytes into events (specs/README.md §9.10): SSE (the WHATWG algorithm) or
// NDJSON, chosen by the first non-blank byte; chunks may end anywhere. Linear in the input: a
// chunk is searched for an event's end on its own (with the one character before it), and an
// event's pieces are joined once, when it ends. An event past maxEventSize characters, and
// bytes that are not UTF-8, are malformed_stream.
import { loads } from './json.js';
import { fail } from './stream_part.js';
import { ToolwireError } from './interpreter.js';

export const MAX_EVENT_SIZE = 32 * 1024 * 1024;

const TEXT = new TextDecoder('utf-8', { ignoreBOM: true }); // a BOM is stripped at the stream's start only
const tooBig = (limit) => fail('malformed_stream', `an event is larger than the maximum event size (${limit} characters)`);

// One SSE event's lines (blank lines and comments skipped): [name, data] or null without data.
function parseBlock(block) {
  let name = null; const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') name = value;
  }
  return data.length ? [name, data.join('\n')] : null;
}

// How many leading bytes are whole, valid UTF-8 ({ valid, bad }): `bad` when a byte that can
// never be UTF-8 follows them, else the rest is a character still arriving.
function utf8Prefix(bytes) {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) { i++; continue; }
    let need; let min;
    if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; } else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; } else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; } else return { valid: i, bad: true };
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) return { valid: i, bad: false }; // cut inside a character
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return { valid: i, bad: true };
      code = (code << 6) | (c & 0x3f);
      // an overlong form, a surrogate or beyond U+10FFFF is refused at its second byte
      if (k === 1 && ((need === 2 && b === 0xe0 && c < 0xa0) || (need === 2 && b === 0xed && c > 0x9f)
        || (need === 3 && b === 0xf0 && c < 0x90) || (need === 3 && b === 0xf4 && c > 0x8f))) return { valid: i, bad: true };
    }
    if (code < min) return { valid: i, bad: true };
    i += need + 1;
  }
  return { valid: i, bad: false };
}

// Methods mixed into the Accumulator: they call this.feed(payload, eventName).
export const framingMethods = {
  // The text of the whole characters so far; a byte that is not UTF-8 sets the framing
  // error, raised once the events before it are handed out (§9.10).
  decode(chunk) {
    const bytes = this.heldBytes && this.heldBytes.length ? Buffer.concat([this.heldBytes, chunk]) : chunk;
    const { valid, bad } = utf8Prefix(bytes);
    this.heldBytes = bad ? null : bytes.subarray(valid);
    if (bad && !this.frameError) this.frameError = fail('malformed_stream', 'the stream is not UTF-8', { format: this.spec && this.spec.format });
    return TEXT.decode(bytes.subarray(0, valid));
  },

  // §9.10: raw bytes, framed by their first non-blank byte.
  feedBytes(chunk) {
    this.refuseInput();
    let text = this.decode(chunk);
    if (!this.framing) {
      if (!this.started && text) { this.started = true; if (text.startsWith('\uFEFF')) text = text.slice(1); }
      const first = text.match(/[^ \t\r\n]/);
      if (!first) { // blank bytes before the first event are dropped as they arrive
        const cut = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
        this.keep(cut ? text.slice(cut) : text, cut > 0);
        return this.framed([]);
      }
      const c = first[0];
      if (c === '{') this.framing = 'ndjson';
      else if ('deir:'.includes(c)) this.framing = 'sse';
      else if (c === '[') throw this.failed(fail('unsupported_stream', 'a streamed JSON array: request SSE'));
      else throw this.failed(fail('malformed_stream', 'not SSE or NDJSON'));
    }
    return this.framed(this.frame(text));
  },

  keep(text, fresh = false) {
    if (fresh) { this.parts = []; this.size = 0; }
    if (!text) return;
    this.parts.push(text); this.size += text.length;
    if (this.size > this.maxEventSize) { this.parts = []; this.size = 0; this.frameError = tooBig(this.maxEventSize); }
  },

  joined(text) {
    if (!this.parts.length) return text;
    const all = this.parts.join('') + text;
    this.parts = []; this.size = 0;
    return all;
  },

  // The events the new text completes: [name, data] pairs.
  frame(text) {
    if (this.framing === 'ndjson') {
      if (!text.includes('\n')) { this.keep(text); return []; }
      const lines = this.joined(text).split('\n');
      this.keep(lines.pop());
      const out = [];
      for (const line of lines) {
        if (line.length > this.maxEventSize) { this.frameError = tooBig(this.maxEventSize); break; }
        if (line.trim()) out.push([null, line]);
      }
      return out;
    }
    if (this.pendingCR && text) { this.pendingCR = false; if (text.startsWith('\n')) text = text.slice(1); }
    if (text.includes('\r')) { this.pendingCR = text.endsWith('\r'); text = text.replace(/\r\n/g, '\n').replace(/\r/g, '\n'); }
    if (!text) return [];
    if (!(this.endsLF && text[0] === '\n') && !text.includes('\n\n')) { this.keep(text); this.endsLF = text.endsWith('\n'); return []; }
    const blocks = this.joined(text).split('\n\n');
    const rest = blocks.pop();
    this.keep(rest); this.endsLF = rest.endsWith('\n');
    const out = [];
    for (const block of blocks) {
      if (block.length > this.maxEventSize) { this.frameError = tooBig(this.maxEventSize); break; }
      const event = parseBlock(block);
      if (event) out.push(event);
    }
    return out;
  },

  // Feed the framed events; a failure after some updates is kept and raised by the next call.
  framed(events) {
    const out = [];
    for (const [name, data] of events) {
      try { out.push(...this.feed(data, name)); } catch (error) {
        if (error instanceof ToolwireError && out.length) return out;
        throw error;
      }
    }
    if (this.frameError) {
      const error = this.failed(this.frameError);
      if (!out.length) throw error;
    }
    return out;
  },

  closeInput() {
    if (this.failure) throw this.again();
    if (this.closed) return [];
    let out = [];
    if (this.framing === 'ndjson') {
      const tail = this.heldBytes && this.heldBytes.length ? '\uFFFD' : ''; // cut inside a character
      const line = this.joined(tail);
      let whole = line.trim() !== '';
      try { loads(line); } catch { whole = false; }
      if (whole) out = this.framed([[null, line]]);
    }
    this.parts = []; this.size = 0; // SSE: an event without its blank line is discarded
    this.closed = true;
    return out;
  },
};
