// An ECMAScript regular expression (`u` flag, the syntax JSON Schema's `pattern` uses) read
// into a small tree. The pattern has already compiled with the platform's RegExp (the
// authority on what is valid), so this reader only has to take it apart the same way; a
// construct it does not know (syntax newer than ES2024's, such as `(?i:…)` modifiers) is
// refused with the reason, never guessed at.
//
// An atom that consumes one character is a literal (`lit`, its code point), `.` (`any`) or a
// set (`set`: a class `[…]` or a class escape `\d`, `\p{L}`, …, kept as its source text: the
// engines test one code point against it with the platform's RegExp, which cannot backtrack
// on one character, so a set means exactly what the platform says it means).
//
// Nodes: {t: 'lit', cp} | {t: 'any'} | {t: 'set', source} | {t: 'empty'} | {t: 'cat', items} |
// {t: 'alt', items} | {t: 'group', index (null: not capturing), body} | {t: 'repeat', body,
// min, max (Infinity: unbounded), greedy, groups: [first, last] capture indexes inside (an
// iteration clears them)} | {t: 'assert', kind: 'bol'|'eol'|'word'|'notword'} | {t: 'look',
// behind, negate, body} | {t: 'backref', index}.

export class RegexUnsupported extends Error {}

// Group nesting beyond this is refused: the limit of specs/README.md §8.2, the same in every implementation.
export const MAX_NESTING = 245;

const CONTROL = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
const SET_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W']);
const isDigit = (c) => c >= '0' && c <= '9';
const isHex = (c) => /^[0-9A-Fa-f]$/.test(c);

export function parse(source) {
  const reader = new Reader(source);
  const root = reader.alternation();
  if (reader.pos !== source.length) throw new RegexUnsupported(`unexpected ${source[reader.pos]} at ${reader.pos}`);
  for (const node of reader.named) {
    if (!reader.names.has(node.name)) throw new RegexUnsupported(`no group named ${node.name}`);
    node.index = reader.names.get(node.name);
    delete node.name;
  }
  return { root, groups: reader.groups };
}

class Reader {
  constructor(source) {
    this.text = source;
    this.pos = 0;
    this.groups = 0;
    this.depth = 0;
    this.names = new Map();
    this.named = []; // \k<name> nodes, resolved once every group is known
  }

  peek(offset = 0) { return this.text[this.pos + offset]; }

  alternation() {
    const items = [this.sequence()];
    while (this.peek() === '|') {
      this.pos += 1;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0] : { t: 'alt', items };
  }

  sequence() {
    const items = [];
    while (this.pos < this.text.length && this.peek() !== '|' && this.peek() !== ')') {
      const before = this.groups;
      const atom = this.atom();
      items.push(this.quantified(atom, before));
    }
    if (!items.length) return { t: 'empty' };
    return items.length === 1 ? items[0] : { t: 'cat', items };
  }

  quantified(atom, groupsBefore) {
    const c = this.peek();
    let min; let max;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      const found = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.pos));
      if (!found) throw new RegexUnsupported(`a lone { at ${this.pos}`);
      min = Number(found[1]);
      max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
      this.pos += found[0].length - 1;
    } else return atom;
    this.pos += 1;
    if (atom.t === 'assert' || atom.t === 'look') throw new RegexUnsupported('a quantified assertion');
    let greedy = true;
    if (this.peek() === '?') { greedy = false; this.pos += 1; }
    if ('*+?{'.includes(this.peek() ?? 'x')) throw new RegexUnsupported(`a quantifier on a quantifier at ${this.pos}`);
    return { t: 'repeat', body: atom, min, max, greedy, groups: [groupsBefore + 1, this.groups] };
  }

  atom() {
    const c = this.peek();
    if (c === '(') return this.group();
    if (c === '[') return this.charClass();
    if (c === '.') { this.pos += 1; return { t: 'any' }; }
    if (c === '^') { this.pos += 1; return { t: 'assert', kind: 'bol' }; }
    if (c === '$') { this.pos += 1; return { t: 'assert', kind: 'eol' }; }
    if (c === '\\') return this.escape();
    if ('*+?{}])'.includes(c)) throw new RegexUnsupported(`a lone ${c} at ${this.pos}`);
    const cp = this.text.codePointAt(this.pos);
    this.pos += cp > 0xffff ? 2 : 1;
    return { t: 'lit', cp };
  }

  group() {
    if (++this.depth > MAX_NESTING) throw new RegexUnsupported('the pattern nests too deeply');
    const text = this.text;
    this.pos += 1;
    let node;
    if (text.startsWith('?:', this.pos)) {
      this.pos += 2;
      node = { t: 'group', index: null, body: this.alternation() };
    } else if (/^\?<?[=!]/.test(text.slice(this.pos, this.pos + 3))) {
      const behind = text[this.pos + 1] === '<';
      const negate = text[this.pos + (behind ? 2 : 1)] === '!';
      this.pos += behind ? 3 : 2;
      node = { t: 'look', behind, negate, body: this.alternation() };
    } else if (text.startsWith('?<', this.pos)) {
      this.pos += 2;
      const name = this.groupName();
      if (this.names.has(name)) throw new RegexUnsupported(`the group name ${name} is used twice (newer than ES2024)`);
      const index = ++this.groups;
      this.names.set(name, index);
      node = { t: 'group', index, body: this.alternation() };
    } else if (text[this.pos] === '?') {
      throw new RegexUnsupported(`the group syntax (?${text[this.pos + 1] ?? ''} (newer than ES2024) at ${this.pos - 1}`);
    } else {
      const index = ++this.groups; // before the body: its own groups come after
      node = { t: 'group', index, body: this.alternation() };
    }
    if (this.peek() !== ')') throw new RegexUnsupported(`a missing ) at ${this.pos}`);
    this.pos += 1;
    this.depth -= 1;
    return node;
  }

  // A group name after `(?<` or `\k<`, up to `>`, its \u escapes decoded.
  groupName() {
    const end = this.text.indexOf('>', this.pos);
    if (end < 0) throw new RegexUnsupported('an unterminated group name');
    const raw = this.text.slice(this.pos, end);
    this.pos = end + 1;
    return raw.replace(/\\u\{([0-9A-Fa-f]+)\}|\\u([0-9A-Fa-f]{4})/g, (_, braced, four) => String.fromCharCode(...codeUnits(parseInt(braced ?? four, 16))));
  }

  // `[…]` kept as its source: the first `]` not escaped closes it (`[]` matches nothing, `[^]`
  // anything), as in ECMAScript.
  charClass() {
    const text = this.text;
    let at = this.pos + 1;
    while (at < text.length && text[at] !== ']') at += text[at] === '\\' ? 2 : 1;
    if (at >= text.length) throw new RegexUnsupported('an unterminated character class');
    const source = text.slice(this.pos, at + 1);
    this.pos = at + 1;
    return { t: 'set', source };
  }

  escape() {
    const text = this.text;
    const start = this.pos;
    const c = text[start + 1];
    if (c === undefined) throw new RegexUnsupported('a trailing backslash');
    this.pos = start + 2;
    if (c === 'b') return { t: 'assert', kind: 'word' };
    if (c === 'B') return { t: 'assert', kind: 'notword' };
    if (SET_ESCAPES.has(c)) return { t: 'set', source: text.slice(start, this.pos) };
    if (c === 'p' || c === 'P') {
      const end = text.indexOf('}', this.pos);
      if (text[this.pos] !== '{' || end < 0) throw new RegexUnsupported(`a malformed \\${c} at ${start}`);
      this.pos = end + 1;
      return { t: 'set', source: text.slice(start, this.pos) };
    }
    if (c >= '1' && c <= '9') {
      while (isDigit(text[this.pos] ?? '')) this.pos += 1;
      return { t: 'backref', index: Number(text.slice(start + 1, this.pos)) };
    }
    if (c === 'k') {
      if (text[this.pos] !== '<') throw new RegexUnsupported(`a malformed \\k at ${start}`);
      this.pos += 1;
      const node = { t: 'backref', index: 0, name: this.groupName() };
      this.named.push(node);
      return node;
    }
    if (c === '0') {
      if (isDigit(text[this.pos] ?? '')) throw new RegexUnsupported(`an octal escape at ${start}`);
      return { t: 'lit', cp: 0 };
    }
    if (c in CONTROL) return { t: 'lit', cp: CONTROL[c] };
    if (c === 'c') {
      const letter = text[this.pos] ?? '';
      if (!/^[A-Za-z]$/.test(letter)) throw new RegexUnsupported(`a malformed \\c at ${start}`);
      this.pos += 1;
      return { t: 'lit', cp: letter.charCodeAt(0) % 32 };
    }
    if (c === 'x') {
      const hex = text.slice(this.pos, this.pos + 2);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new RegexUnsupported(`a malformed \\x at ${start}`);
      this.pos += 2;
      return { t: 'lit', cp: parseInt(hex, 16) };
    }
    if (c === 'u') return { t: 'lit', cp: this.unicodeEscape(start) };
    const cp = text.codePointAt(start + 1);
    if (!'^$\\.*+?()[]{}|/'.includes(String.fromCodePoint(cp))) throw new RegexUnsupported(`an unknown escape \\${c} at ${start}`);
    return { t: 'lit', cp };
  }

  // \u{…}, \uHHHH, and \uHHHH\uHHHH for a surrogate pair (one code point with the u flag).
  unicodeEscape(start) {
    const text = this.text;
    if (text[this.pos] === '{') {
      const end = text.indexOf('}', this.pos);
      const hex = text.slice(this.pos + 1, end);
      if (end < 0 || !hex || ![...hex].every(isHex)) throw new RegexUnsupported(`a malformed \\u at ${start}`);
      this.pos = end + 1;
      return parseInt(hex, 16);
    }
    const hex = text.slice(this.pos, this.pos + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(hex)) throw new RegexUnsupported(`a malformed \\u at ${start}`);
    this.pos += 4;
    const unit = parseInt(hex, 16);
    const trail = /^\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})/.exec(text.slice(this.pos, this.pos + 6));
    if (unit >= 0xd800 && unit <= 0xdbff && trail) {
      this.pos += 6;
      return 0x10000 + ((unit - 0xd800) << 10) + (parseInt(trail[1], 16) - 0xdc00);
    }
    return unit;
  }
}

function codeUnits(cp) {
  if (cp <= 0xffff) return [cp];
  const v = cp - 0x10000;
  return [0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff)];
}
