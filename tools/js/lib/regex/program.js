// The tree of parse.js compiled to the programs the two engines run.
//
// An instruction is an opcode with two operands (arrays `op`, `a`, `b`):
//   LIT cp · ANY · SET test     consume one code point: `cp` itself, any but a line terminator,
//                               one for which tests[test] holds
//   MATCH                       the pattern (or a look-around's body) has matched
//   JMP to · SPLIT first second continue at `to`; try `first`, then `second`
//   ASSERT kind                 ^ $ \b \B (no `m` flag: ^ and $ at the text's ends only)
//   LOOK index negate           a look-around (see below)
// and, in the backtracking programs only:
//   SAVE slot                   a group's start or end (slots 2i, 2i+1)
//   RESET from to               clear slots from..to: each iteration of a quantified atom
//                               starts with its groups unset, as ECMAScript says
//   MARK reg · CHECK reg        an optional iteration that matched the empty string fails
//                               (ECMAScript's RepeatMatcher)
//   BACKREF group               the text the group captured, again
//
// A program reads the text forwards (dir 1) or backwards (dir -1): a backwards program is its
// tree with every concatenation reversed (and each group's SAVEs swapped).
//
// Look-arounds differ by engine. The linear engine answers every look-around for every
// position of the text before the search, each by one sweep of its body: (?<=X) holds where
// X ends (a forward sweep starting X at every position), (?=X) where X starts (the reversed X
// swept backwards): `bodies[i]` is that program, inner look-arounds first. The backtracking
// engine runs the body where it stands (ECMAScript's semantics, captures included):
// `bodies[i]` is the body forwards for (?=X) and backwards for (?<=X).

export const LIT = 0, ANY = 1, SET = 2, MATCH = 3, JMP = 4, SPLIT = 5, ASSERT = 6, LOOK = 7,
  SAVE = 8, RESET = 9, MARK = 10, CHECK = 11, BACKREF = 12;
export const BOL = 0, EOL = 1, WORD = 2, NOTWORD = 3;
const ASSERTS = { bol: BOL, eol: EOL, word: WORD, notword: NOTWORD };

// The program size a pattern may reach: counted repetitions are written out, so a pattern
// whose program would pass this is refused. Counted as Python's engine counts its program
// (toolwire.boundedre: MAX_PROGRAM), so both refuse the same patterns.
export const MAX_PROGRAM = 20_000;

export function nullable(node) {
  switch (node.t) {
    case 'lit': case 'any': case 'set': return false;
    case 'group': return nullable(node.body);
    case 'repeat': return node.min === 0 || nullable(node.body);
    case 'alt': return node.items.some(nullable);
    case 'cat': return node.items.every(nullable);
    default: return true; // empty, assert, look, backref (an unset group matches empty)
  }
}

export function hasBackref(node) {
  if (node.t === 'backref') return true;
  if (node.items) return node.items.some(hasBackref);
  return node.body ? hasBackref(node.body) : false;
}

// Whether every match must start at the text's start (a search tries no other position).
export function anchoredAtStart(node) {
  switch (node.t) {
    case 'assert': return node.kind === 'bol';
    case 'cat': return anchoredAtStart(node.items[0]);
    case 'group': return anchoredAtStart(node.body);
    case 'alt': return node.items.every(anchoredAtStart);
    default: return false;
  }
}

// The size of the program toolwire.boundedre builds for the same tree.
function pythonSize(node) {
  switch (node.t) {
    case 'lit': case 'any': case 'set': case 'assert': case 'backref': case 'look': return 1;
    case 'empty': return 0;
    case 'cat': return node.items.reduce((sum, item) => sum + pythonSize(item), 0);
    case 'alt': return node.items.reduce((sum, item) => sum + pythonSize(item), 0) + 2 * (node.items.length - 1);
    case 'group': return pythonSize(node.body) + (node.index === null ? 0 : 2);
    case 'repeat': {
      const body = pythonSize(node.body);
      const required = node.min === 0 ? 0 : node.min * body;
      if (node.max === Infinity) return required + 2 + (nullable(node.body) ? 2 : 0) + body;
      return required + (node.max - node.min) * (1 + body);
    }
    default: throw new Error(`unknown node ${node.t}`);
  }
}

function looksIn(node, found = []) {
  if (node.t === 'look') found.push(node);
  if (node.items) for (const item of node.items) looksIn(item, found);
  else if (node.body) looksIn(node.body, found);
  return found;
}

// Whether the written-out program would pass MAX_PROGRAM (the main program first, then with
// every look-around's body, as Python's engine checks it).
export function tooLarge(root) {
  const main = 1 + pythonSize(root);
  if (main > MAX_PROGRAM) return true;
  const looks = looksIn(root);
  if (!looks.length) return false;
  return main + 2 + looks.reduce((sum, look) => sum + pythonSize(look.body) + 1, 0) > MAX_PROGRAM;
}

class Emitter {
  constructor(shared, dir) {
    this.shared = shared; // { mode, tests, looks | subs, regs }
    this.dir = dir;
    this.op = []; this.a = []; this.b = [];
  }

  put(op, a = 0, b = 0) {
    this.op.push(op); this.a.push(a); this.b.push(b);
    return this.op.length - 1;
  }

  done() {
    this.put(MATCH);
    return { op: Int32Array.from(this.op), a: Int32Array.from(this.a), b: Int32Array.from(this.b), dir: this.dir };
  }

  emit(node) {
    const backtracking = this.shared.mode === 'backtracking';
    switch (node.t) {
      case 'lit': this.put(LIT, node.cp); break;
      case 'any': this.put(ANY); break;
      case 'set': this.put(SET, this.shared.test(node.source)); break;
      case 'empty': break;
      case 'cat': {
        const items = this.dir > 0 ? node.items : [...node.items].reverse();
        for (const item of items) this.emit(item);
        break;
      }
      case 'alt': this.alternation(node.items); break;
      case 'group': {
        const saves = backtracking && node.index !== null;
        const [first, last] = this.dir > 0 ? [2 * node.index, 2 * node.index + 1] : [2 * node.index + 1, 2 * node.index];
        if (saves) this.put(SAVE, first);
        this.emit(node.body);
        if (saves) this.put(SAVE, last);
        break;
      }
      case 'repeat': this.repeat(node); break;
      case 'assert': this.put(ASSERT, ASSERTS[node.kind]); break;
      case 'backref': this.put(BACKREF, node.index); break;
      case 'look': this.put(LOOK, this.shared.look(node), node.negate ? 1 : 0); break;
      default: throw new Error(`unknown node ${node.t}`);
    }
  }

  alternation(items) {
    const jumps = [];
    for (const item of items.slice(0, -1)) {
      const split = this.put(SPLIT, this.op.length + 1);
      this.emit(item);
      jumps.push(this.put(JMP));
      this.b[split] = this.op.length;
    }
    this.emit(items[items.length - 1]);
    for (const at of jumps) this.a[at] = this.op.length;
  }

  // One iteration of a quantified atom: its groups cleared first, and (when optional and
  // the body can match empty) an empty iteration refused.
  iteration(node, optional, reg) {
    const [from, to] = node.groups;
    if (this.shared.mode === 'backtracking' && to >= from) this.put(RESET, 2 * from, 2 * to + 1);
    if (optional && reg >= 0) this.put(MARK, reg);
    this.emit(node.body);
    if (optional && reg >= 0) this.put(CHECK, reg);
  }

  repeat(node) {
    if (pythonSize(node.body) === 0) return; // a body that only matches empty, setting nothing
    const reg = this.shared.mode === 'backtracking' && nullable(node.body) ? this.shared.regs++ : -1;
    for (let i = 0; i < node.min; i++) this.iteration(node, false, reg);
    const choose = (at, take, leave) => {
      this.a[at] = node.greedy ? take : leave;
      this.b[at] = node.greedy ? leave : take;
    };
    if (node.max === Infinity) {
      const loop = this.put(SPLIT);
      this.iteration(node, true, reg);
      this.put(JMP, loop);
      choose(loop, loop + 1, this.op.length);
      return;
    }
    const holes = [];
    for (let i = node.min; i < node.max; i++) {
      holes.push(this.put(SPLIT));
      this.iteration(node, true, reg);
    }
    for (const at of holes) choose(at, at + 1, this.op.length);
  }
}

// Shared by every program of one pattern: the set tests, and the look-arounds' programs.
function compileWith(mode, root, setTest) {
  const tests = [];
  const indexes = new Map();
  const shared = {
    mode,
    tests,
    regs: 0,
    bodies: [],
    test(source) {
      if (!indexes.has(source)) { indexes.set(source, tests.length); tests.push(setTest(source)); }
      return indexes.get(source);
    },
    look(node) {
      // linear: swept forwards for a look-behind, backwards for a look-ahead;
      // backtracking: run where it stands, forwards for a look-ahead.
      const forward = mode === 'linear' ? node.behind : !node.behind;
      const emitter = new Emitter(shared, forward ? 1 : -1);
      emitter.emit(node.body); // inner look-arounds are numbered first
      shared.bodies.push(emitter.done());
      return shared.bodies.length - 1;
    },
  };
  const main = new Emitter(shared, 1);
  main.emit(root);
  return { main: main.done(), bodies: shared.bodies, tests, regs: shared.regs };
}

export function buildLinear(root, setTest) {
  return compileWith('linear', root, setTest);
}

export function buildBacktracking(root, groups, setTest) {
  return { ...compileWith('backtracking', root, setTest), slots: 2 * (groups + 1) };
}
