// The bounded regular expressions (lib/regex): ECMAScript's `u`-flag verdicts, time linear in
// the text without back-references, a budget of steps with them, and the patterns refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import { BoundedRegExp, BUDGET, RegexUnsupported, MAX_NESTING, withOneBudget } from '../lib/regex/index.js';
import { growth, GROWTH_BOUND } from './growth.mjs';

// A seeded generator (mulberry32): the same patterns and texts on every run.
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (r, list) => list[Math.floor(r() * list.length)];

const ATOMS = ['a', 'b', 'c', '.', '[ab]', '[^a]', '[a-c]', '\\d', '\\w', '\\s', '\\W', '[\\d\\s]', '😀', '\\u{1F600}',
  '\\x61', '\\n', '\\.', '\\p{L}', '\\P{L}', '[]', '[^]', '-', ' ', '\\uD83D', '[\\uD83D]'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{0,2}', '{1,}', '{2,3}'];
const LOOKS = ['(?=', '(?!', '(?<=', '(?<!'];

// An ordinary pattern: atoms, classes, groups (named too), alternations, greedy and lazy
// quantifiers, anchors, look-arounds, and back-references to the groups opened before.
function pattern(r) {
  let groups = 0;
  const alternation = (depth) => Array.from({ length: r() < 0.75 ? 1 : 2 + Math.floor(r() * 2) }, () => sequence(depth)).join('|');
  const sequence = (depth) => Array.from({ length: Math.floor(r() * 4) }, () => term(depth)).join('');
  function term(depth) {
    const x = r();
    if (x < 0.08) return pick(r, ['^', '$', '\\b', '\\B']);
    if (x < 0.14 && depth < 3) return `${pick(r, LOOKS)}${alternation(depth + 1)})`;
    if (x < 0.2 && groups > 0) return `\\${1 + Math.floor(r() * groups)}`;
    let atom = pick(r, ATOMS);
    if (r() < 0.3 && depth < 3) {
      const kind = r();
      if (kind < 0.5) atom = `(${(groups++, alternation(depth + 1))})`;
      else if (kind < 0.6) atom = `(?<g${++groups}>${alternation(depth + 1)})`;
      else atom = `(?:${alternation(depth + 1)})`;
    }
    return r() < 0.55 ? atom : atom + pick(r, QUANTIFIERS) + (r() < 0.25 ? '?' : '');
  }
  return alternation(0);
}

const CHARS = ['a', 'a', 'b', 'b', 'c', '1', ' ', '\n', '😀', '\uD83D', '\uDE00', '-', '.', 'é', '_'];
const text = (r) => Array.from({ length: Math.floor(r() * 9) }, () => pick(r, CHARS)).join('');

// The platform's verdict as ECMAScript defines a search: a match starting at some code point
// boundary. (V8 also tries the middle of a surrogate pair for an empty match, such as `\B`
// in 'a😀', which the specification's search never does.)
function nativeTest(source, value) {
  const sticky = new RegExp(source, 'uy');
  for (let i = 0; i <= value.length; i += i < value.length && value.codePointAt(i) > 0xffff ? 2 : 1) {
    sticky.lastIndex = i;
    if (sticky.test(value)) return true;
  }
  return false;
}

test('generated ordinary patterns give the platform RegExp\'s verdicts on generated texts', () => {
  const r = random(20240601);
  const engines = { linear: 0, backtracking: 0 };
  let matched = 0;
  for (let i = 0; i < 1500; i++) {
    const source = pattern(r);
    const bounded = new BoundedRegExp(source);
    engines[bounded.engine] += 1;
    for (let j = 0; j < 6; j++) {
      const value = text(r);
      const expected = nativeTest(source, value);
      matched += expected ? 1 : 0;
      assert.equal(bounded.search(value), expected, `${JSON.stringify(source)} on ${JSON.stringify(value)}`);
    }
  }
  assert.ok(engines.linear > 500 && engines.backtracking > 100, JSON.stringify(engines)); // both engines ran
  assert.ok(matched > 2000 && matched < 7000, `${matched} of 9000 matched`); // both verdicts were asked
});

test('a pattern compiles exactly when the platform RegExp accepts it with the u flag (ES2024 syntax)', () => {
  const tokens = ['(', ')', '(?:', '(?=', '(?!', '(?<=', '(?<!', '(?<n>', '\\k<n>', '[', ']', '[^', '{', '}', '{1}', '{1,}',
    '{0,2}', '{2,1}', '|', '*', '+', '?', '\\', '^', '$', '.', 'a', '1', ',', '-', '<', '>', '\\1', '\\2', '\\0', '\\01',
    '\\u0061', '\\u{61}', '\\uD83D\\uDE00', '\\x6', '\\p{L}', '\\p{Foo}', '\\cA', '\\c1', '\\-', '\\/', '\\b', '\\d', '\\k',
    '\\q', '😀', 'z-a', '\\d-a', '(?i:'];
  const r = random(7);
  let valid = 0;
  for (let i = 0; i < 6000; i++) {
    const source = Array.from({ length: 1 + Math.floor(r() * 7) }, () => pick(r, tokens)).join('');
    let accepted = true;
    try { new RegExp(source, 'u'); } catch { accepted = false; } // eslint-disable-line no-new
    if (!accepted) {
      assert.throws(() => new BoundedRegExp(source), SyntaxError, source);
      continue;
    }
    valid += 1;
    let bounded;
    try { bounded = new BoundedRegExp(source); } catch (error) { // a platform that reads ES2025 syntax
      assert.ok(error instanceof RegexUnsupported && /newer than ES2024/.test(error.message), `${source}: ${error.message}`);
      continue;
    }
    for (const value of ['', 'a', 'aa1', '😀', 'a😀-', '<n>']) assert.equal(bounded.search(value), nativeTest(source, value), `${source} on ${value}`);
  }
  assert.ok(valid > 600, `${valid} valid patterns`);
});

test('ECMAScript\'s capture rules decide back-references as the platform does', () => {
  const cases = {
    '^(?:(a)|(b))+\\1\\2$': ['abab', 'aba', 'abb', 'bab'], // each iteration clears the groups inside
    '^(?:(a)|b)*\\1$': ['aba', 'ab', 'b'],
    '^(a\\1?){4}$': ['aaaaaaaaaa', 'aaaaaaaaa', 'aaaa'], // a group referring to itself sees its last value
    '^(?:()|a)*?\\1b$': ['aab'], // an optional iteration that matches empty fails
    '(?=(a+))a*b\\1': ['baaabac', 'baaabaaac'], // a look-ahead keeps its first match's captures
    '^(.*?)a(?!(a+)b\\2c)\\2(.*)$': ['baaabaac'],
    '(?<=\\1(\\d))x': ['11x', '12x'], // a look-behind matches backwards
    '(?<=(\\d)\\1)x': ['11x', '12x'],
    '(?!(a))\\1b': ['b', 'ab'],
    '\\k<x>(?<x>a)': ['a', ''], // a reference before its group matches empty
    '^(\\uD83D)\\1$': ['\uD83D\uD83D', '\uD83D😀'], // code points, not UTF-16 units
  };
  for (const [source, values] of Object.entries(cases)) {
    const bounded = new BoundedRegExp(source);
    assert.equal(bounded.engine, 'backtracking');
    for (const value of values) assert.equal(bounded.search(value), nativeTest(source, value), `${source} on ${value}`);
  }
});

test('a match never starts inside a surrogate pair, as ECMAScript\'s search says', () => {
  assert.equal(new BoundedRegExp('\\B').search('a.b😀b'), false);
  assert.equal(new BoundedRegExp('(?<!^)').search('😀'), true); // at the end, after the pair
  assert.equal(new BoundedRegExp('^.$').search('😀'), true);
  assert.equal(new BoundedRegExp('\\uDE00').search('😀'), false);
});

test('patterns that make a backtracking engine take exponential time run in time linear in the text', () => {
  const cases = [
    ['^([A-Za-z0-9]+\\s?)*$', (n) => `${'a'.repeat(n)}!`], // the platform: seconds at 33 characters
    ['^(\\w+\\s?)*$', (n) => `${'ab '.repeat(n / 3)}!`],
    ['(a*)*b', (n) => 'a'.repeat(n)],
    ['^(a|aa)+$', (n) => `${'a'.repeat(n)}b`],
    ['(x+x+)+y', (n) => 'x'.repeat(n)],
    ['^(?=(a+)+b)', (n) => 'a'.repeat(n)], // a look-ahead is one sweep of the text
    ['(?<=(a|aa)+)c', (n) => `${'a'.repeat(n)}b`],
  ];
  for (const [source, make] of cases) {
    const bounded = new BoundedRegExp(source);
    assert.equal(bounded.engine, 'linear');
    // three texts: no answer remembered; the memory cleared before each run, too
    const prepare = (n) => { const values = [0, 1, 2].map((i) => make(n) + 'z'.repeat(i)); return () => { bounded.seen.clear(); for (const v of values) assert.equal(bounded.search(v), false, source); }; };
    const ratio = growth(prepare, 10_000); // process CPU time, not wall time: see growth.mjs
    assert.ok(ratio < GROWTH_BOUND, `${source}: 4x the text took ${ratio.toFixed(1)}x the CPU time (linear: 4)`);
  }
});

test('a back-reference pattern stops at its budget of steps, and answers within it', () => {
  const source = '^(\\w+\\s?)*\\1!$';
  const bounded = new BoundedRegExp(source);
  assert.equal(bounded.engine, 'backtracking');
  assert.equal(bounded.search(`${'ab'.repeat(200)}?`), BUDGET);
  assert.equal(bounded.search('ab ab!'), false); // the reference to "ab" must end the text before "!"
  assert.equal(bounded.search('ab abab!'), true);
  // the budget is what stops a search: the same text is decided with more steps
  const small = new BoundedRegExp(source, { steps: 2_000 });
  assert.equal(small.search(`${'ab'.repeat(30)}?`), BUDGET);
  assert.equal(bounded.search(`${'ab'.repeat(30)}?`), false);
  assert.equal(small.search('ab ab ab!'), false);
});

test('patterns the bounded engines do not run are refused, each with its reason', () => {
  assert.throws(() => new BoundedRegExp('a{20000}'), (e) => e instanceof RegexUnsupported && /expand to more than 20000/.test(e.message));
  assert.throws(() => new BoundedRegExp('[a-z]{0,10000}'), RegexUnsupported); // as Python counts its program
  assert.equal(new BoundedRegExp('a{19998}').engine, 'linear');
  assert.throws(() => new BoundedRegExp('(?:a{1000}){1000}'), RegexUnsupported); // never written out
  assert.throws(() => new BoundedRegExp('(?=a{10000})b{10000}'), RegexUnsupported); // look-around bodies count
  const nested = (depth) => `${'('.repeat(depth)}a${')'.repeat(depth)}`;
  assert.equal(new BoundedRegExp(nested(MAX_NESTING)).search('a'), true);
  assert.throws(() => new BoundedRegExp(nested(MAX_NESTING + 1)), (e) => e instanceof RegexUnsupported && /nests too deeply/.test(e.message));
  assert.throws(() => new BoundedRegExp('(?P<n>a)'), SyntaxError); // Python syntax is no ECMAScript
  for (const newer of ['(?i:a)', '(?<n>a)|(?<n>b)']) { // ES2025: refused whether the platform reads it or not
    assert.throws(() => new BoundedRegExp(newer), (e) => e instanceof SyntaxError || (e instanceof RegexUnsupported && /newer than ES2024/.test(e.message)));
  }
  assert.equal(new BoundedRegExp('(?:){100000000}').search(''), true); // an empty body is never repeated
});

test('searches inside withOneBudget share its steps: once spent, every later search is BUDGET at once', () => {
  const bounded = new BoundedRegExp('^(\\w+\\s?)*\\1!$');
  const texts = Array.from({ length: 16 }, (_, n) => `${String(n).padStart(2, '0')}${'ab'.repeat(30)}?`);
  let afterFirst = 0;
  const budget = withOneBudget((open) => {
    assert.equal(bounded.search(texts[0]), BUDGET);
    afterFirst = open.total - open.left;
    for (const text of texts.slice(1)) assert.equal(bounded.search(text), BUDGET);
    assert.equal(bounded.search('ab ab ab!'), BUDGET); // even a cheap one: the budget is spent
    return open;
  }, 20_000);
  assert.ok(afterFirst > 20_000 && afterFirst <= 20_001, `spent ${afterFirst}`);
  assert.equal(budget.total - budget.left, afterFirst);
  assert.equal(bounded.search('ab ab ab!'), false); // outside it, a search has a budget of its own
  withOneBudget(() => assert.equal(bounded.search(texts[0]), BUDGET), 20_000); // an overrun stands for its budget only: searched again
  assert.equal(bounded.search(texts[0]), false); // with the million steps of its own it is decided
});

test('a pattern without back-references spends no budget, whatever the text', () => {
  const text = `${'ab'.repeat(15_000)}a${'b'.repeat(60)}c`;
  const spent = withOneBudget((open) => {
    assert.equal(new BoundedRegExp('a.{60}c').search(text), true);
    assert.equal(new BoundedRegExp('a.{60}c').search(text.slice(0, -1)), false);
    assert.equal(new BoundedRegExp('(?=\\w*!)a').search('ab'.repeat(2_000)), false);
    return open.total - open.left;
  }, 1);
  assert.equal(spent, 0);
});

test('a repetition count is ASCII digits: x{٣} is no pattern under the u flag', () => {
  assert.throws(() => new BoundedRegExp('x{\u0663}'), SyntaxError);
  assert.equal(new BoundedRegExp('x{3}').search('xxx'), true);
});

test('a remembered answer is charged the steps its search took', () => {
  const bounded = new BoundedRegExp('^(\\w+\\s?)*\\1!$');
  const spent = () => withOneBudget((open) => { assert.equal(bounded.search('ef efef!'), true); return open.total - open.left; });
  const first = spent();
  assert.ok(first > 0);
  assert.equal(spent(), first); // remembered, and charged as if searched
  withOneBudget(() => assert.equal(bounded.search('ef efef!'), BUDGET), first - 1);
});
