// The scan of specs/README.md §1b.5: reasoning regions (§1b.2), sections, blocks (and bare
// function blocks, rule 10), payload alternatives and the clean text. Grammars live beside it.
import { earliest, skipBlanks, strip } from './common.js';

// compiled: { opens, close, textStart, section, payloads, bare: {open, close, grammar} | null, reasoning }
export function scan(text, s) {
  const kept = []; const calls = [];
  const parse = (payloads, start, end, fill, cut) => {
    const chunk = text.slice(start, end);
    for (const grammar of payloads) {
      const parsed = grammar(chunk, fill, cut);
      if (parsed && parsed.calls.length) return { calls: parsed.calls, end: start + parsed.end };
    }
    return null;
  };
  // the next block: [position, marker length, bare?]
  const nextOpen = (pos) => {
    const [at, length] = earliest(text, s.opens, pos);
    if (!s.bare) return [at, length, false];
    const fn = text.indexOf(s.bare.open, pos);
    if (fn !== -1 && (at === -1 || fn < at)) return [fn, s.bare.open.length, true];
    return [at, length, false];
  };
  const blocks = (pos, end, keep, found) => {
    let splitUntil = -1;
    while (pos < end) {
      const [opened, length, bare] = nextOpen(pos);
      if (opened === -1 || opened >= end) break;
      if (opened > pos) keep.push([pos, opened]);
      const body = opened + length;
      const [following] = earliest(text, s.opens, body);
      const next = following !== -1 && following < end ? following : end;
      if (bare) { // rule 10: the function markers are the block's own and part of its payload
        const closeAt = text.indexOf(s.bare.close, body);
        const [after] = nextOpen(body); // never closed: cut at the next open marker of either kind
        const stop = after !== -1 && after < end ? after : end;
        const closed = closeAt !== -1 && closeAt < stop;
        const blockEnd = closed ? closeAt + s.bare.close.length : stop;
        const parsed = parse([s.bare.grammar], opened, blockEnd, true, !closed);
        if (parsed) found.push(...parsed.calls); else keep.push([opened, blockEnd]);
        pos = blockEnd;
        continue;
      }
      if (s.close === null) {
        const parsed = parse(s.payloads, body, next, false, next === text.length);
        if (!parsed) { keep.push([opened, next]); pos = next; } else { found.push(...parsed.calls); pos = parsed.end; }
        continue;
      }
      const closeAt = text.indexOf(s.close, body);
      let closed = closeAt !== -1 && closeAt + s.close.length <= end;
      let limit = closed ? closeAt : end;
      if (opened < splitUntil && next < limit) { limit = next; closed = false; }
      const blockEnd = closed ? limit + s.close.length : limit;
      const parsed = parse(s.payloads, body, limit, true, !closed);
      const splittable = opened >= splitUntil && next < limit;
      if (parsed && !(splittable && parsed.calls.some((c) => c.arguments_undecodable))) { found.push(...parsed.calls); pos = blockEnd; }
      else if (splittable) { splitUntil = limit; pos = opened; }
      else { keep.push([opened, blockEnd]); pos = blockEnd; }
    }
    if (pos < end) keep.push([pos, end]);
  };
  // One range outside the reasoning (or inside a region with calls): sections, else blocks.
  const range = (start, end, textStart) => {
    if (!s.section) {
      const first = skipBlanks(text, start, end);
      if (textStart && s.textStart && first !== end) {
        const [hit] = nextOpen(first);
        if (hit !== first) {
          const limit = hit !== -1 && hit < end ? hit : end;
          const parsed = parse(s.payloads, first, limit, false, limit === text.length);
          if (parsed) { calls.push(...parsed.calls); start = parsed.end; }
        }
      }
      blocks(start, end, kept, calls);
      return;
    }
    let pos = start;
    for (;;) {
      const at = text.indexOf(s.section.open, pos);
      if (at === -1 || at >= end) { if (pos < end) kept.push([pos, end]); break; }
      kept.push([pos, at]);
      const inner = at + s.section.open.length;
      const closeAt = text.indexOf(s.section.close, inner); const nextAt = text.indexOf(s.section.open, inner);
      let innerEnd; let after;
      if (closeAt !== -1 && closeAt < end && (nextAt === -1 || closeAt < nextAt)) { innerEnd = closeAt; after = closeAt + s.section.close.length; }
      else { innerEnd = nextAt !== -1 && nextAt < end ? nextAt : end; after = innerEnd; }
      const keep = []; const found = [];
      blocks(inner, innerEnd, keep, found);
      if (found.length) { calls.push(...found); kept.push(...keep.filter(([a, b]) => strip(text.slice(a, b)))); }
      else kept.push([at, after]);
      pos = after;
    }
  };
  let pos = 0; let leading = true;
  for (const region of regions(text, s.reasoning)) {
    if (region.start > pos) { range(pos, region.start, leading); leading = leading && !strip(text.slice(pos, region.start)); }
    if (region.calls) { kept.push([region.start, region.inner]); range(region.inner, region.innerEnd, false); kept.push([region.innerEnd, region.end]); }
    else kept.push([region.start, region.end]);
    pos = region.end;
  }
  if (pos < text.length || !text.length) range(pos, text.length, leading);
  return { clean_text: strip(kept.map(([a, b]) => text.slice(a, b)).join('')), calls };
}

// Reasoning regions, left to right (§1b.2): { start, inner, innerEnd, end, calls }.
function regions(text, kinds) {
  const out = [];
  if (!kinds.length) return out;
  let pos = 0;
  const [firstOpen] = earliest(text, kinds.map((k) => k.open), 0);
  let first = null; // open_in_prompt: the first such close marker before any open marker
  for (const k of kinds.filter((x) => x.open_in_prompt)) {
    const close = text.indexOf(k.close);
    if (close !== -1 && (firstOpen === -1 || close < firstOpen) && (!first || close < first.close)) first = { close, k };
  }
  if (first) {
    out.push({ start: 0, inner: 0, innerEnd: first.close, end: first.close + first.k.close.length, calls: !!first.k.calls });
    pos = first.close + first.k.close.length;
  }
  for (;;) {
    let best = null;
    for (const k of kinds) {
      const at = text.indexOf(k.open, pos);
      if (at !== -1 && (!best || at < best.at || (at === best.at && k.open.length > best.k.open.length))) best = { at, k };
    }
    if (!best) return out;
    const inner = best.at + best.k.open.length;
    const close = text.indexOf(best.k.close, inner);
    const innerEnd = close === -1 ? text.length : close;
    const end = close === -1 ? text.length : close + best.k.close.length;
    out.push({ start: best.at, inner, innerEnd, end, calls: !!best.k.calls });
    pos = end;
  }
}
