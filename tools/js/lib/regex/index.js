// Regular expressions on model text, with a bound on what one search may cost.
//
// A tool schema's `pattern` is a developer's and the text it runs on a model's. The
// platform's RegExp backtracks, and some patterns take exponential time on some texts
// (`^([A-Za-z0-9]+\s?)*$` on 33 characters: seconds), with no way to interrupt it. So
// toolwire answers such patterns here instead, with ECMAScript's `u`-flag semantics (what
// ajv compiles `pattern` with):
//
// * a pattern without back-references — look-arounds included — runs on the linear engine
//   (linear.js): time linear in the text for every pattern;
// * a pattern with back-references runs by backtracking (backtrack.js), each step spent
//   from a budget (DEFAULT_STEPS): `search` answers BUDGET when it runs out.
//
// Only the backtracking engine's steps cost budget: the linear engine's never do, so a
// pattern without back-references never runs out. A search has a budget of its own unless
// one is open (`withOneBudget`: one tool call's check); then every search inside draws on
// it, and once it is spent every further backtracking search answers BUDGET at once.
//
// The platform's RegExp is the authority on syntax (a pattern it refuses throws its
// SyntaxError here) and on what a class or `\p{…}` matches (one code point tested at a
// time); `RegexUnsupported` is thrown for the few patterns the engines do not run: syntax
// newer than ES2024, counted repetitions written out past MAX_PROGRAM instructions,
// groups nested deeper than MAX_NESTING.
import { parse, RegexUnsupported, MAX_NESTING } from './parse.js';
import { buildLinear, buildBacktracking, hasBackref, anchoredAtStart, tooLarge, MAX_PROGRAM } from './program.js';
import { linearTest } from './linear.js';
import { backtrackTest, OutOfSteps } from './backtrack.js';

export { RegexUnsupported, MAX_NESTING, MAX_PROGRAM };

// Steps one backtracking search may take (tens of milliseconds), as many as Python's engine.
export const DEFAULT_STEPS = 1_000_000;
// What `search` answers when a search ran out of steps.
export const BUDGET = 'budget';

// The budget every search draws on while `withOneBudget` runs, else null.
let shared = null;

// `run()` with every search inside drawing on one budget of `steps` steps; its value. The
// budget object ({ total, left }) is handed to `run` (what the searches spent is
// `total - left`).
export function withOneBudget(run, steps = DEFAULT_STEPS) {
  const outer = shared;
  shared = { total: steps, left: steps };
  try { return run(shared); } finally { shared = outer; }
}

const SET_TESTS = new Map();

// Whether one code point matches the set `source` (a class or a class escape), asked of the
// platform's RegExp once per code point (ASCII in a table, others remembered).
function setTest(source) {
  let test = SET_TESTS.get(source);
  if (test) return test;
  const one = new RegExp(`^(?:${source})$`, 'u');
  const ascii = new Int8Array(128).fill(-1);
  const other = new Map();
  test = (cp) => {
    if (cp < 128) {
      if (ascii[cp] < 0) ascii[cp] = one.test(String.fromCharCode(cp)) ? 1 : 0;
      return ascii[cp] === 1;
    }
    let known = other.get(cp);
    if (known === undefined) {
      known = one.test(String.fromCodePoint(cp));
      if (other.size < 4096) other.set(cp, known);
    }
    return known;
  };
  if (SET_TESTS.size >= 4096) SET_TESTS.clear();
  SET_TESTS.set(source, test);
  return test;
}

export class BoundedRegExp {
  constructor(source, { steps = DEFAULT_STEPS } = {}) {
    if (typeof source !== 'string') throw new TypeError('a pattern is a string');
    new RegExp(source, 'u'); // eslint-disable-line no-new -- its SyntaxError where the platform refuses the pattern
    let tree;
    try { tree = parse(source); } catch (error) {
      if (error instanceof RangeError) throw new RegexUnsupported('the pattern nests too deeply');
      throw error;
    }
    if (tooLarge(tree.root)) throw new RegexUnsupported(`the pattern's counted repetitions expand to more than ${MAX_PROGRAM} steps`);
    this.source = source;
    this.flags = 'u';
    this.steps = steps;
    this.engine = hasBackref(tree.root) ? 'backtracking' : 'linear';
    this.program = this.engine === 'linear' ? buildLinear(tree.root, setTest) : buildBacktracking(tree.root, tree.groups, setTest);
    this.program.anchored = anchoredAtStart(tree.root);
    this.seen = new Map();
  }

  // true or false: whether the pattern matches anywhere in `text`; BUDGET when the search ran
  // out of steps. The last answers are remembered: a value checked twice costs one search. A
  // remembered answer is charged the steps its search took, so what a budget allows never
  // depends on what was searched before; an overrun is remembered with the budget it ran out
  // of (null: a search's own), and stands for that budget only.
  search(text) {
    const known = this.seen.get(text);
    if (known !== undefined) {
      if (known.answer !== undefined) {
        if (known.cost > 0 && shared) {
          shared.left -= known.cost;
          if (shared.left < 0) return BUDGET;
        }
        return known.answer;
      }
      if (known.budget === shared) return BUDGET;
    }
    let found;
    if (this.engine === 'linear') found = { answer: linearTest(this.program, text), cost: 0 };
    else {
      const budget = shared ?? { total: this.steps, left: this.steps };
      const before = budget.left;
      try {
        if (budget.left < 0) throw new OutOfSteps(); // a spent budget fails every search at once
        found = { answer: backtrackTest(this.program, text, budget), cost: before - budget.left };
      } catch (error) {
        if (!(error instanceof OutOfSteps)) throw error;
        found = { budget: shared };
      }
    }
    if (this.seen.size >= 64) this.seen.clear();
    this.seen.set(text, found);
    return found.answer ?? BUDGET;
  }

  // RegExp's `test`, as ajv calls it: a search that ran out of steps is no match here (ajv
  // then reports the value); tools_patterns.js reports it as `regex_budget` instead.
  test(text) {
    return this.search(String(text)) === true;
  }

  // ajv keys the patterns it holds by this text.
  toString() {
    return `/${this.source}/u`;
  }
}

const CACHE = new Map();

// `source` compiled for bounded searches (kept: one pattern compiles once).
export function boundedRegExp(source) {
  let found = CACHE.get(source);
  if (!found) {
    found = new BoundedRegExp(source);
    if (CACHE.size >= 1024) CACHE.clear();
    CACHE.set(source, found);
  }
  return found;
}
