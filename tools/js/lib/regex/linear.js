// The linear engine: whether a program without back-references matches anywhere in a text,
// by Thompson's simulation of its NFA. The threads alive at a position are a set of
// instructions (at most one thread each), stepped over each code point once, so the work is
// at most (program size) x (text length) whatever the pattern: nothing backtracks. A yes/no
// answer needs no thread order and no captures; an iteration that matches the empty string
// changes no position, so ECMAScript's rule refusing it changes no answer either.
//
// A look-around is answered for every position before the search, by one sweep of its body
// over the whole text (program.js): the work stays linear in the text.
import { LIT, ANY, MATCH, JMP, SPLIT, ASSERT, LOOK } from './program.js';
import { pointAt, width, isLineTerminator, holds } from './text.js';

// Sweeps `program` over `text` in its direction, a thread starting at every position (only
// at the first when `anchored`). `firstOnly`: whether any match is found (stops at the
// first); otherwise the positions where a match ends (a Uint8Array by UTF-16 index).
function sweep(program, tests, text, tables, firstOnly, anchored) {
  const { op, a, b, dir } = program;
  const size = op.length;
  const end = dir > 0 ? text.length : 0;
  // One program is never swept inside its own sweep: its buffers are reused.
  const scratch = (program.scratch ||= [new Int32Array(size), new Int32Array(size), new Int32Array(size), new Int32Array(size)]);
  let [current, next] = scratch;
  const [, , mark, stack] = scratch;
  mark.fill(-1);
  let count = 0;
  const found = firstOnly ? null : new Uint8Array(text.length + 1);
  let matchedAt = -1;

  // Adds the thread at `start` and every instruction it reaches without reading, at `pos`.
  function add(list, length, start, pos) {
    if (mark[start] === pos) return length;
    mark[start] = pos;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top];
      let to = -1;
      let also = -1;
      switch (op[pc]) {
        case MATCH: matchedAt = pos; break;
        case JMP: to = a[pc]; break;
        case SPLIT: to = a[pc]; also = b[pc]; break;
        case ASSERT: if (holds(a[pc], text, pos)) to = pc + 1; break;
        case LOOK: if ((tables[a[pc]][pos] === 1) !== (b[pc] === 1)) to = pc + 1; break;
        default: list[length++] = pc; // a code point reader
      }
      if (to >= 0 && mark[to] !== pos) { mark[to] = pos; stack[top++] = to; }
      if (also >= 0 && mark[also] !== pos) { mark[also] = pos; stack[top++] = also; }
    }
    return length;
  }

  const first = dir > 0 ? 0 : text.length;
  let pos = first;
  for (;;) {
    if (!anchored || pos === first) count = add(current, count, 0, pos);
    if (matchedAt === pos) {
      if (firstOnly) return true;
      found[pos] = 1;
    }
    if (pos === end || (anchored && count === 0)) break;
    const cp = pointAt(text, pos, dir);
    const to = pos + dir * width(cp);
    let length = 0;
    for (let i = 0; i < count; i++) {
      const pc = current[i];
      const code = op[pc];
      if (code === LIT ? a[pc] === cp : code === ANY ? !isLineTerminator(cp) : tests[a[pc]](cp)) length = add(next, length, pc + 1, to);
    }
    [current, next] = [next, current];
    count = length;
    pos = to;
  }
  return firstOnly ? false : found;
}

// Whether `compiled` (buildLinear) matches anywhere in `text`.
export function linearTest(compiled, text) {
  const tables = [];
  for (const body of compiled.bodies) tables.push(sweep(body, compiled.tests, text, tables, false, false));
  return sweep(compiled.main, compiled.tests, text, tables, true, compiled.anchored);
}
