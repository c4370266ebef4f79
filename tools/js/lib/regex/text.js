// What both engines read off the text: code points (the `u` flag reads a surrogate pair as
// one character, a lone surrogate as itself) at UTF-16 indexes, and the zero-width
// assertions. Positions are always code point boundaries.
import { BOL, EOL, WORD } from './program.js';

// The code point that starts at `pos` (forwards) or ends there (backwards), or -1 at the
// text's end; `width` (1 or 2) is how many UTF-16 units it takes.
export function pointAt(text, pos, dir) {
  if (dir > 0) return pos < text.length ? text.codePointAt(pos) : -1;
  if (pos <= 0) return -1;
  const low = text.charCodeAt(pos - 1);
  if (low >= 0xdc00 && low <= 0xdfff && pos >= 2) {
    const high = text.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

export const width = (cp) => (cp > 0xffff ? 2 : 1);

// `.` without the `s` flag: anything but a line terminator.
export const isLineTerminator = (cp) => cp === 0x0a || cp === 0x0d || cp === 0x2028 || cp === 0x2029;

// \b and \B read ASCII word characters (the `u` flag without `i`): a surrogate is never one.
const isWordUnit = (u) => (u >= 0x61 && u <= 0x7a) || (u >= 0x41 && u <= 0x5a) || (u >= 0x30 && u <= 0x39) || u === 0x5f;

export function holds(kind, text, pos) {
  if (kind === BOL) return pos === 0;
  if (kind === EOL) return pos === text.length;
  const before = pos > 0 && isWordUnit(text.charCodeAt(pos - 1));
  const after = pos < text.length && isWordUnit(text.charCodeAt(pos));
  return kind === WORD ? before !== after : before === after;
}

// Whether `pos` falls between the two halves of a surrogate pair (a back-reference must not
// end there: it compares code points, not UTF-16 units).
export function splitsPair(text, pos) {
  if (pos <= 0 || pos >= text.length) return false;
  const high = text.charCodeAt(pos - 1);
  const low = text.charCodeAt(pos);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
