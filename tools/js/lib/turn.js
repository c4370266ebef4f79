// The turn a reply carries (specs/README.md §7): what its assistant turn is written from
// beside its calls and text, as plain data, so a reply restored from JSON renders the same turn.
import { compileExpression } from './expression.js';
import { isObject } from './json.js';

// §7: a reply's turn (null without a render part): its top-level items in order, each call
// item as the index of its call in reply.calls (one that yielded no call left out), and the
// value of every ${response:<expression>} placeholder on the reply, null ones left out.
export function responseValues(spec, view) {
  const found = {};
  const stack = [spec.data.render];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string' && value.startsWith('${response:') && value.endsWith('}')) {
      const source = value.slice(11, -1).replace(/\?$/, '').trim();
      const got = compileExpression(source).evaluate(view);
      if (got !== null && got !== undefined) found[source] = got;
    } else if (Array.isArray(value)) stack.push(...value);
    else if (isObject(value)) stack.push(...Object.values(value));
  }
  return found;
}

