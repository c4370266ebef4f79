// Framing raw bytes into events (specs/README.md §9.10): SSE (the WHATWG algorithm) or
// NDJSON, chosen by the first non-blank byte; chunks may end anywhere.
import { loads } from './json.js';
import { fail } from './stream_part.js';

// Methods mixed into the Accumulator: they call this.feed(payload, eventName).
export const framingMethods = {
  // §9.10: raw bytes, framed by their first non-blank byte.
  feedBytes(chunk) {
    const text = this.decoder.decode(chunk, { stream: true });
    const out = [];
    this.buffer += text;
    if (!this.framing) {
      const body = this.buffer.replace(/^\uFEFF/, '');
      const first = body.match(/[^\s]/);
      if (!first) return out;
      const c = first[0];
      if (c === '{') this.framing = 'ndjson';
      else if ('deir:'.includes(c)) this.framing = 'sse';
      else if (c === '[') throw this.failed(fail('unsupported_stream', 'a streamed JSON array: request SSE'));
      else throw this.failed(fail('malformed_stream', 'not SSE or NDJSON'));
      this.buffer = body;
    }
    this.drain(out, false);
    return out;
  },

  drain(out, atEnd) {
    for (;;) {
      if (this.pendingCR && this.buffer.startsWith('\n')) this.buffer = this.buffer.slice(1);
      if (this.pendingCR && this.buffer.length) this.pendingCR = false;
      const m = this.buffer.match(/\r\n|\r|\n/);
      if (!m) break;
      let line = this.buffer.slice(0, m.index);
      let rest = this.buffer.slice(m.index + m[0].length);
      if (m[0] === '\r' && !rest.length && !atEnd) { this.pendingCR = true; }
      this.buffer = rest;
      out.push(...this.line(line));
    }
    if (atEnd && this.buffer.length) {
      const line = this.buffer; this.buffer = '';
      if (this.framing === 'ndjson') {
        let whole = true;
        try { loads(line); } catch { whole = false; }
        if (whole) out.push(...this.line(line));
      } // SSE: an event without its blank line is discarded
    }
  },

  line(line) {
    if (this.framing === 'ndjson') return line.trim() ? this.feed(line) : [];
    if (line === '') {
      const { data, name } = this.sse; this.sse = { data: [], name: null };
      if (!data.length) return [];
      const payload = data.join('\n');
      if (this.part && this.part.sentinel !== null && payload.trim() === this.part.sentinel) {
        if (this.stopped) throw this.failed(fail('malformed_stream', 'a second sentinel'));
        this.stopped = true; return [];
      }
      if (this.stopped) throw this.failed(fail('malformed_stream', 'an event after the sentinel'));
      return this.feed(payload, name);
    }
    if (line.startsWith(':')) return [];
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.sse.data.push(value);
    else if (field === 'event') this.sse.name = value;
    return [];
  },

  closeInput() {
    if (this.inputClosed) return [];
    this.inputClosed = true;
    const out = [];
    if (this.framing && !this.failure) {
      this.buffer += this.decoder.decode();
      this.drain(out, true);
    }
    return out;
  },
};
