// Grammar `head-json` (specs/README.md §1b.7): a name head, then JSON arguments (Mistral's
// NAME[ARGS]{…}, DeepSeek, Kimi K2). The name is known first, so broken arguments still make a call.
import { scanAt, classify } from '../json.js';
import { call, decoded, plausibleName, skipBlanks, skipJson, strip, UNFINISHED } from './common.js';

const RAN_OUT = ['unexpected-end', 'unterminated-string'];

export function headGrammar(p) {
  // Where the head (from `begin`, ending before `end`) stops and the arguments start.
  const split = (text, begin, end) => {
    let best = null;
    // the literals are looked for after a leading name_prefix (Step-Audio 2's "function\n")
    const lead = skipBlanks(text, begin, end);
    const from = p.name_prefix && text.startsWith(p.name_prefix, lead) ? lead + p.name_prefix.length : begin;
    const find = (m) => { const at = text.indexOf(m, from); return at !== -1 && at + m.length <= end ? at : -1; };
    for (const m of p.head_end || []) { const at = find(m); if (at !== -1 && (!best || at < best[0])) best = [at, at + m.length]; }
    for (const m of p.arguments_start || []) { const at = find(m); if (at !== -1 && (!best || at < best[0])) best = [at, at]; }
    return best;
  };
  const grammar = (chunk, fill, cut) => {
    const best = split(chunk, 0, chunk.length);
    if (!best) return cut ? { calls: [], end: chunk.length, unfinished: true } : null;
    const head = strip(chunk.slice(0, best[0]));
    let name = head; let id = p.id === 'head' ? head : '';
    if (p.id_marker && head.includes(p.id_marker)) {
      const at = head.indexOf(p.id_marker);
      name = strip(head.slice(0, at)); id = strip(head.slice(at + p.id_marker.length));
    }
    if (p.name_prefix && name.startsWith(p.name_prefix)) name = strip(name.slice(p.name_prefix.length));
    if (p.index_suffix) {
      const at = name.lastIndexOf(p.index_suffix);
      if (at === -1 || !/^[0-9]+$/.test(name.slice(at + p.index_suffix.length))) return null;
      name = name.slice(0, at);
    }
    if (!plausibleName(name)) return null;
    let start = best[1]; let end = chunk.length;
    if (!fill) {
      const at = skipJson(chunk, start);
      try { const [, e2] = scanAt(chunk, at); start = at; end = e2; } catch { /* the rest is the arguments */ }
    }
    let raw = strip(chunk.slice(start, end));
    if (p.arguments_prefix && raw.startsWith(p.arguments_prefix)) raw = strip(raw.slice(p.arguments_prefix.length));
    if (p.arguments_suffix && raw.endsWith(p.arguments_suffix)) raw = strip(raw.slice(0, raw.length - p.arguments_suffix.length));
    if (raw === '' && cut && end === chunk.length) return { calls: [call(name, {}, id, UNFINISHED)], end, unfinished: true };
    const c = decoded(name, raw, id);
    return { calls: [c], end, unfinished: c.arguments_undecodable && end === chunk.length && RAN_OUT.includes(c.arguments_error_code) };
  };
  // §1b.5 step 2: where the call starting at `start` ends when its JSON arguments are read past
  // any marker; the head itself ends before `limit`.
  grammar.extent = (text, start, limit) => {
    const best = split(text, start, limit);
    if (!best) return -1;
    let at = skipJson(text, best[1]);
    if (p.arguments_prefix && text.startsWith(p.arguments_prefix, at)) at = skipJson(text, at + p.arguments_prefix.length);
    const [code, end] = classify(text, at, false);
    if (code !== 'ok') return -1;
    const after = skipJson(text, end);
    return p.arguments_suffix && text.startsWith(p.arguments_suffix, after) ? after + p.arguments_suffix.length : end;
  };
  return grammar;
}
