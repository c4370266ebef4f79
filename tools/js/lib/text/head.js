// Grammar `head-json` (specs/README.md §1b.7): a name head, then JSON arguments (Mistral's
// NAME[ARGS]{…}, DeepSeek, Kimi K2). The name is known first, so broken arguments still make a call.
import { scanAt } from '../json.js';
import { call, decoded, plausibleName, skipBlanks, skipJson, strip, UNFINISHED } from './common.js';

export function headGrammar(p) {
  return (chunk, fill, cut) => {
    let best = null;
    // the literals are looked for after a leading name_prefix (Step-Audio 2's "function\n")
    const lead = skipBlanks(chunk, 0);
    const from = p.name_prefix && chunk.startsWith(p.name_prefix, lead) ? lead + p.name_prefix.length : 0;
    for (const m of p.head_end || []) { const at = chunk.indexOf(m, from); if (at !== -1 && (!best || at < best[0])) best = [at, at + m.length]; }
    for (const m of p.arguments_start || []) { const at = chunk.indexOf(m, from); if (at !== -1 && (!best || at < best[0])) best = [at, at]; }
    if (!best) return null;
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
    if (raw === '' && cut && end === chunk.length) return { calls: [call(name, {}, id, UNFINISHED)], end };
    return { calls: [decoded(name, raw, id)], end };
  };
}
