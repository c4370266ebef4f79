// Framing raw bytes into events (specs/README.md §9.10): SSE (the WHATWG algorithm) or
// NDJSON, chosen by the first non-blank byte; chunks may end anywhere. Linear in the input: a
// chunk is searched for an event's end on its own (with the one character before it), and an
// event's pieces are joined once, when it ends. An event past maxEventSize characters, and
// bytes that are not UTF-8, are malformed_stream.
import { loads } from './json.js';
import { fail } from './stream_part.js';
import { ToolwireError } from './interpreter.js';

export const MAX_EVENT_SIZE = 32 * 1024 * 1024;

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

// Methods mixed into the Accumulator: they call this.feed(payload, eventName).
export const framingMethods = {
  decode(chunk, stream = true) {
    try { return this.decoder.decode(chunk, { stream }); } catch {
      throw this.failed(fail('malformed_stream', 'the stream is not UTF-8', { format: this.spec && this.spec.format }));
    }
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
        return [];
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
      let tail = '';
      try { tail = this.decoder.decode(); } catch { tail = '\uFFFD'; }
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
