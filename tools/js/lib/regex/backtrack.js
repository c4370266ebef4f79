// The backtracking engine, for patterns with back-references (no linear algorithm matches
// those): ECMAScript's matcher run on a program (program.js) — alternatives in order, each
// iteration of a quantified atom starting with its groups unset, an optional iteration that
// matches the empty string refused, a back-reference to an unset group matching the empty
// string, look-arounds atomic with the captures of their first match (a look-behind matched
// backwards) — stopped after a budget of steps: `OutOfSteps` is thrown then.
//
// A state met before at a SPLIT (same instruction, position, captures and loop marks) failed
// then and fails again: remembering it keeps nested loops from multiplying paths.
import { LIT, ANY, SET, MATCH, JMP, SPLIT, ASSERT, LOOK, SAVE, RESET, MARK, CHECK, BACKREF } from './program.js';
import { pointAt, width, isLineTerminator, holds, splitsPair } from './text.js';

export class OutOfSteps extends Error {}

const MAX_REMEMBERED = 100_000;

function sameText(text, from, to, at) {
  for (let i = from; i < to; i++, at++) if (text.charCodeAt(i) !== text.charCodeAt(at)) return false;
  return true;
}

// Matches `program` exactly at `pos`: the position where it ends, or -1. `caps` and `regs`
// hold the match's captures and loop marks when it succeeds.
function attempt(compiled, program, text, pos, caps, regs, budget) {
  const { op, a, b, dir } = program;
  const tests = compiled.tests;
  const stack = []; // (0, pc, pos): an alternative; (1, slot, old), (2, reg, old): an undo
  const failed = new Set();
  let pc = 0;
  for (;;) {
    if (--budget.left < 0) throw new OutOfSteps();
    let ok = false;
    const code = op[pc];
    switch (code) {
      case LIT: case ANY: case SET: {
        const cp = pointAt(text, pos, dir);
        if (cp >= 0 && (code === LIT ? a[pc] === cp : code === ANY ? !isLineTerminator(cp) : tests[a[pc]](cp))) {
          pos += dir * width(cp);
          pc += 1;
          continue;
        }
        break;
      }
      case MATCH: return pos;
      case JMP: pc = a[pc]; continue;
      case SPLIT: {
        const state = `${pc} ${pos} ${caps.join(' ')} ${regs.join(' ')}`;
        if (failed.has(state)) break;
        if (failed.size < MAX_REMEMBERED) failed.add(state);
        stack.push(0, b[pc], pos);
        pc = a[pc];
        continue;
      }
      case SAVE: stack.push(1, a[pc], caps[a[pc]]); caps[a[pc]] = pos; pc += 1; continue;
      case RESET:
        for (let slot = a[pc]; slot <= b[pc]; slot++) {
          if (caps[slot] !== -1) { stack.push(1, slot, caps[slot]); caps[slot] = -1; }
        }
        pc += 1;
        continue;
      case MARK: stack.push(2, a[pc], regs[a[pc]]); regs[a[pc]] = pos; pc += 1; continue;
      case CHECK: if (regs[a[pc]] !== pos) { pc += 1; continue; } break;
      case ASSERT: if (holds(a[pc], text, pos)) { pc += 1; continue; } break;
      case BACKREF: {
        const start = caps[2 * a[pc]];
        const end = caps[2 * a[pc] + 1];
        if (start < 0 || end < 0) { pc += 1; continue; }
        const length = end - start;
        const from = dir > 0 ? pos : pos - length;
        if (from >= 0 && from + length <= text.length && sameText(text, start, end, from) && !splitsPair(text, dir > 0 ? from + length : from)) {
          pos += dir * length;
          pc += 1;
          continue;
        }
        break;
      }
      case LOOK: {
        const inner = caps.slice();
        const end = attempt(compiled, compiled.bodies[a[pc]], text, pos, inner, regs.slice(), budget);
        if (b[pc] === 1) ok = end < 0; // negative: no capture survives
        else if (end >= 0) {
          ok = true;
          for (let slot = 0; slot < caps.length; slot++) {
            if (inner[slot] !== caps[slot]) { stack.push(1, slot, caps[slot]); caps[slot] = inner[slot]; }
          }
        }
        if (ok) { pc += 1; continue; }
        break;
      }
      default: throw new Error(`unknown instruction ${code}`);
    }
    // Failed: back to the latest alternative, undoing what was set since.
    for (;;) {
      if (!stack.length) return -1;
      const second = stack.pop();
      const first = stack.pop();
      const kind = stack.pop();
      if (kind === 1) caps[first] = second;
      else if (kind === 2) regs[first] = second;
      else { pc = first; pos = second; break; }
    }
  }
}
// Whether `compiled` (buildBacktracking) matches anywhere in `text`, within `budget.left`
// steps (OutOfSteps beyond).
export function backtrackTest(compiled, text, budget) {
  for (let pos = 0; pos <= text.length; pos += pos < text.length ? width(text.codePointAt(pos)) : 1) {
    const caps = new Int32Array(compiled.slots).fill(-1);
    const regs = new Int32Array(compiled.regs).fill(-1);
    if (attempt(compiled, compiled.main, text, pos, caps, regs, budget) >= 0) return true;
    if (compiled.anchored) return false;
  }
  return false;
}
