// What every text grammar shares (specs/README.md §1b): blanks, names read from free text, the
// call record, and the earliest-marker search.
import { decodeArguments } from '../json.js';

// Blanks where names and values are trimmed (§1b.5); inside JSON only JSON's four are.
const BLANK = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
export const isBlank = (c) => c !== undefined && BLANK.test(c);
export function strip(s) {
  let a = 0; let b = s.length;
  while (a < b && isBlank(s[a])) a++;
  while (b > a && isBlank(s[b - 1])) b--;
  return s.slice(a, b);
}
export const skipBlanks = (s, i, end = s.length) => { while (i < end && isBlank(s[i])) i++; return i; };
export const skipJson = (s, i) => { while (i < s.length && ' \t\n\r'.includes(s[i])) i++; return i; };
export const UNFINISHED = 'call-unfinished';

// Rule 6 of §1b: a name read from free text.
const FORBIDDEN = new Set('<>[]{}()"\'`,;=\\');
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
export function plausibleName(name) {
  const chars = [...name];
  return chars.length >= 1 && chars.length <= 256 && chars.every((c) => !isBlank(c) && !FORBIDDEN.has(c) && !UNPRINTABLE.test(c));
}

export const call = (name, args, id, code = null) => {
  const c = { name, arguments: args, id, synthetic: false, arguments_undecodable: code !== null };
  if (code !== null) c.arguments_error_code = code;
  return c;
};
export const decoded = (name, raw, id) => {
  const d = decodeArguments(raw);
  return call(name, structuredClone(d.arguments), id, d.code);
};

// A fault inside a call whose name is known: the call is kept, its arguments undecodable.
export class Fault extends Error { constructor(code) { super(code); this.code = code; } }

// earliest(text, markers, pos): [position, length], the longest at a tie; [-1, 0] for none.
export function earliest(text, markers, pos) {
  let best = -1; let length = 0;
  for (const m of markers) {
    const at = text.indexOf(m, pos);
    if (at !== -1 && (best === -1 || at < best || (at === best && m.length > length))) { best = at; length = m.length; }
  }
  return [best, length];
}
