// The scan of specs/README.md §1b.5: reasoning regions (§1b.2), sections, blocks (and bare
// function blocks, rule 10), payload alternatives, the longer reading past a quoted marker, and
// the account of §1b.12 (skipped regions, incomplete calls, truncation). Grammars live beside it.
import { earliest, skipBlanks, strip } from './common.js';

const REASONS = {
  'cut-off': 'the reply ends inside this call region before a call could be read',
  'not-a-call': 'this call region does not read as a call of the format',
};
const unclean = (calls) => calls.some((c) => c.arguments_undecodable);

// compiled: { opens, close, closes, textStart, section, payloads, startPayloads, bare: {open, close, grammar} | null, reasoning }
export function scan(text, s) {
  const size = text.length;
  const kept = []; // [start, end, inReasoning]
  const calls = []; const thoughts = []; const skipped = [];
  let truncated = false;
  const skip = (start, end, code, into) => {
    if (code === 'cut-off') truncated = true;
    into.push({ start, end, text: text.slice(start, end), code, reason: REASONS[code] });
  };
  // The first alternative that reads text[start:end] (positions absolute), and whether some
  // alternative ran out of text before any call.
  const parse = (payloads, start, end, fill, cut) => {
    const chunk = text.slice(start, end);
    let ranOut = false;
    for (const grammar of payloads) {
      const parsed = grammar(chunk, fill, cut);
      if (!parsed) continue;
      if (parsed.calls.length) {
        const stray = parsed.stray !== undefined && parsed.stray !== -1 ? start + parsed.stray : -1;
        return [{ calls: parsed.calls, end: start + parsed.end, unfinished: !!parsed.unfinished, stray }, ranOut];
      }
      ranOut = ranOut || !!parsed.unfinished;
    }
    return [null, ranOut];
  };
  // The calls of a payload; when it ran into the reply's end, the last is incomplete (§1b.12).
  const finished = (parsed) => {
    const out = parsed.calls;
    if (parsed.unfinished && parsed.end === size) {
      truncated = true;
      const last = out.at(-1);
      if (last.arguments_undecodable && !last.incomplete) out[out.length - 1] = { ...last, incomplete: true };
    }
    return out;
  };
  // The longest proper prefix of one of markers that the reply ends with, at or after start;
  // of an opening marker at least half must stand (a reply may end with '<' or 'fun').
  const cutMarker = (markers, start, opening = false) => {
    const found = endsInside(text, start, markers, opening);
    if (found) truncated = true;
    return found;
  };
  // Plain text [pos, end); a reply ending inside an open marker there is a cut-off region.
  const tail = (pos, end, opens, into) => {
    const cut = end === size ? cutMarker(opens, pos, true) : 0;
    if (cut) skip(end - cut, end, 'cut-off', into);
    return [pos, end];
  };
  // §1b.5 step 2: the payload read past `limit` (a marker it holds), when it ends by its own syntax.
  const longer = (body, limit, end, close) => {
    for (const grammar of s.payloads) {
      if (!grammar.extent) continue;
      const stop = grammar.extent(text, body, limit);
      if (stop <= limit || stop > end) continue;
      const after = skipBlanks(text, stop, end);
      let parsed; let blockEnd;
      if (close === null) {
        const [following] = earliest(text, s.opens, stop);
        const chunkEnd = following !== -1 && following < end ? following : end;
        parsed = grammar(text.slice(body, chunkEnd), false, chunkEnd === size);
        blockEnd = parsed ? body + parsed.end : -1;
      } else if (after === end || text.startsWith(close, after)) {
        const closed = after !== end && after + close.length <= end;
        parsed = grammar(text.slice(body, after), true, !closed);
        blockEnd = closed ? after + close.length : after;
      } else continue;
      if (parsed && parsed.calls.length && !parsed.unfinished && !unclean(parsed.calls)) {
        return [{ calls: parsed.calls, end: blockEnd, unfinished: false, stray: -1 }, blockEnd];
      }
    }
    return null;
  };
  const bareBlock = (opened, end, keep, found, into) => {
    const closeAt = text.indexOf(s.bare.close, opened);
    let [following] = earliest(text, [...s.opens, s.bare.open], opened + s.bare.open.length);
    if (following >= end) following = -1;
    let limit; let cut;
    if (closeAt !== -1 && closeAt + s.bare.close.length <= end && (following === -1 || closeAt < following)) {
      limit = closeAt + s.bare.close.length; cut = false;
    } else {
      limit = following !== -1 ? following : end; cut = true;
      if (limit === size) { // the reply may end inside the function's close tag
        const markerCut = cutMarker([s.bare.close], opened + s.bare.open.length);
        if (markerCut) {
          const [parsed] = parse([s.bare.grammar], opened, limit - markerCut, true, false);
          if (parsed) { found.push(...finished(parsed)); return limit; }
        }
      }
    }
    const [parsed] = parse([s.bare.grammar], opened, limit, true, cut);
    if (!parsed) {
      keep.push([opened, limit]);
      skip(opened, limit, cut && limit === size ? 'cut-off' : 'not-a-call', into);
    } else found.push(...finished(parsed));
    return limit;
  };
  const unclosedBlock = (opened, body, next, end, keep, found, into) => {
    const [parsed, ranOut] = parse(s.payloads, body, next, false, next === size);
    if (next < end && (!parsed || parsed.unfinished)) {
      const got = longer(body, next, end, null);
      if (got) { found.push(...finished(got[0])); return got[1]; }
    }
    if (!parsed) {
      keep.push([opened, next]);
      skip(opened, next, ranOut && next === size ? 'cut-off' : 'not-a-call', into);
      return next;
    }
    found.push(...finished(parsed));
    if (parsed.stray !== -1) skip(parsed.stray, next, 'not-a-call', into); // a value after a separator that did not read
    return parsed.end;
  };
  const blocks = (pos, end, keep, found, into) => {
    let splitUntil = -1;
    while (pos < end) {
      const [opened, length] = earliest(text, s.opens, pos);
      if (s.bare) {
        const bareAt = text.indexOf(s.bare.open, pos);
        if (bareAt !== -1 && bareAt < end && (opened === -1 || bareAt < opened)) {
          if (bareAt > pos) keep.push([pos, bareAt]);
          pos = bareBlock(bareAt, end, keep, found, into);
          continue;
        }
      }
      if (opened === -1 || opened >= end) break;
      if (opened > pos) keep.push([pos, opened]);
      const body = opened + length;
      const [following] = earliest(text, s.opens, body);
      const next = following !== -1 && following < end ? following : end;
      const marker = text.slice(opened, body);
      const close = Object.hasOwn(s.closes, marker) ? s.closes[marker] : s.close;
      if (close === null) { pos = unclosedBlock(opened, body, next, end, keep, found, into); continue; }
      const closeAt = text.indexOf(close, body);
      let closed = closeAt !== -1 && closeAt + close.length <= end;
      let limit = closed ? closeAt : end;
      if (opened < splitUntil && next < limit) { limit = next; closed = false; }
      const blockEnd = closed ? limit + close.length : limit;
      const markerCut = closed || limit !== size ? 0 : cutMarker([close], body);
      limit -= markerCut;
      const [parsed] = parse(s.payloads, body, limit, true, !closed && !markerCut);
      if (closed && (!parsed || parsed.unfinished)) {
        const got = longer(body, limit, end, close);
        if (got) { found.push(...finished(got[0])); pos = got[1]; continue; }
      }
      const splittable = opened >= splitUntil && next < limit;
      if (parsed && !(splittable && unclean(parsed.calls))) { found.push(...finished(parsed)); pos = blockEnd; }
      else if (splittable) { splitUntil = limit; pos = opened; }
      else {
        keep.push([opened, blockEnd]);
        skip(opened, blockEnd, !closed && blockEnd === size ? 'cut-off' : 'not-a-call', into);
        pos = blockEnd;
      }
    }
    if (pos < end) keep.push(tail(pos, end, s.bare ? [...s.opens, s.bare.open] : s.opens, into));
  };
  const sections = (pos, end, pieces) => {
    const { open, close } = s.section;
    for (;;) {
      const start = text.indexOf(open, pos);
      if (start === -1 || start >= end) { pieces.push(tail(pos, end, [open], skipped)); return; }
      pieces.push([pos, start]);
      const inner = start + open.length;
      const closeAt = text.indexOf(close, inner); let nextAt = text.indexOf(open, inner);
      if (nextAt >= end) nextAt = -1;
      let innerEnd; let after; let closed = false;
      if (closeAt !== -1 && closeAt < end && (nextAt === -1 || closeAt < nextAt)) { innerEnd = closeAt; after = closeAt + close.length; closed = true; }
      else {
        innerEnd = nextAt !== -1 ? nextAt : end; after = innerEnd;
        if (innerEnd === size) innerEnd -= cutMarker([close], inner); // the reply may end inside the close marker
      }
      const keep = []; const found = []; const inside = [];
      blocks(inner, innerEnd, keep, found, inside);
      if (found.length) {
        calls.push(...found); skipped.push(...inside);
        pieces.push(...keep.filter(([a, b]) => strip(text.slice(a, b))));
      } else {
        pieces.push([start, after]);
        const cut = !closed && after === size;
        skip(start, after, cut || inside.some((r) => r.code === 'cut-off') ? 'cut-off' : 'not-a-call', skipped);
      }
      pos = after;
    }
  };
  // One stretch outside the reasoning: a block at the text's start (text_start), then sections or blocks.
  const outside = (pos, end, first) => {
    if (pos >= end) return;
    const pieces = [];
    if (s.section) sections(pos, end, pieces);
    else {
      let start = pos;
      const at = skipBlanks(text, pos, end);
      if (first && s.textStart && at !== end) {
        const [hit] = earliest(text, s.opens, at);
        if (hit !== at) {
          const limit = hit !== -1 && hit < end ? hit : end;
          const [parsed, ranOut] = parse(s.startPayloads, at, limit, false, limit === size);
          const chunk = text.slice(at, limit);
          if (parsed) {
            calls.push(...finished(parsed)); start = parsed.end;
            if (parsed.stray !== -1) skip(parsed.stray, limit, 'not-a-call', skipped);
          }
          else if (ranOut && limit === size) skip(at, limit, 'cut-off', skipped); // prose is no region;
          else if (s.startPayloads.some((g) => g.startsValue && g.startsValue(chunk))) skip(at, limit, 'not-a-call', skipped); // a value is
        }
      }
      blocks(start, end, pieces, calls, skipped);
    }
    for (const [a, b] of pieces) kept.push([a, b, false]);
  };
  let pos = 0; let first = true;
  for (const region of regions(text, s.reasoning)) {
    outside(pos, region.start, first);
    first = first && !strip(text.slice(pos, region.start));
    if (!region.closed) truncated = true;
    if (region.calls) {
      const pieces = [];
      blocks(region.inner, region.innerEnd, pieces, calls, skipped);
      kept.push([region.start, region.inner, true], ...pieces.map(([a, b]) => [a, b, true]), [region.innerEnd, region.end, true]);
      thoughts.push(strip(pieces.map(([a, b]) => text.slice(a, b)).join('')));
    } else {
      kept.push([region.start, region.end, true]);
      thoughts.push(strip(text.slice(region.inner, region.innerEnd)));
    }
    pos = region.end;
  }
  outside(pos, size, first);
  return {
    clean_text: strip(kept.map(([a, b]) => text.slice(a, b)).join('')),
    calls,
    text: strip(kept.filter(([, , r]) => !r).map(([a, b]) => text.slice(a, b)).join('')),
    reasoning: thoughts.filter((t) => t).join('\n\n'), // §1b.2: empty regions add nothing
    skipped: inCodePoints(text, skipped),
    truncated,
    refused: [],
  };
}

// The length of the longest proper prefix of one of markers that text ends with, at or after
// start (0: none); with opening, at least half of the marker must stand (§1b.12).
export function endsInside(text, start, markers, opening = false) {
  let found = 0;
  for (const m of markers) {
    const least = Math.max(found + 1, opening ? Math.floor((m.length + 1) / 2) : 1);
    for (let length = Math.min(m.length - 1, text.length - start); length >= least; length--) {
      if (text.endsWith(m.slice(0, length))) { found = length; break; }
    }
  }
  return found;
}

// Regions' offsets in code points, as the suite counts them (JavaScript indexes UTF-16 units).
export function inCodePoints(text, regions) {
  const at = (i) => { let n = 0; for (let j = 0; j < i; j++) { const c = text.charCodeAt(j); if (!(c >= 0xdc00 && c <= 0xdfff && j > 0 && text.charCodeAt(j - 1) >= 0xd800 && text.charCodeAt(j - 1) <= 0xdbff)) n++; } return n; };
  return regions.map((r) => ({ ...r, start: at(r.start), end: at(r.end) }));
}

// Reasoning regions, left to right (§1b.2): { start, inner, innerEnd, end, calls, closed }.
function regions(text, kinds) {
  const out = [];
  if (!kinds.length) return out;
  let pos = 0;
  const [firstOpen] = earliest(text, kinds.map((k) => k.open), 0);
  let first = null; // open_in_prompt: the earliest such close marker before any open marker
  for (const k of kinds.filter((x) => x.open_in_prompt)) {
    const close = text.indexOf(k.close);
    if (close !== -1 && (firstOpen === -1 || close < firstOpen) && (!first || close < first.close)) first = { close, k };
  }
  if (first) {
    out.push({ start: 0, inner: 0, innerEnd: first.close, end: first.close + first.k.close.length, calls: !!first.k.calls, closed: true });
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
    if (close !== -1) {
      out.push({ start: best.at, inner, innerEnd: close, end: close + best.k.close.length, calls: !!best.k.calls, closed: true });
      pos = close + best.k.close.length;
      continue;
    }
    const [stop] = earliest(text, best.k.ends_at || [], inner); // §1b.2: never closed, it ends at an ends_at marker
    if (stop === -1) {
      out.push({ start: best.at, inner, innerEnd: text.length, end: text.length, calls: !!best.k.calls, closed: false });
      return out;
    }
    out.push({ start: best.at, inner, innerEnd: stop, end: stop, calls: !!best.k.calls, closed: true });
    pos = stop;
  }
}
