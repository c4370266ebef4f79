// Spec expressions: npm jmespath parses, lib/evaluate.js evaluates (own properties only); this
// module keeps them to the portable subset of specs/README.md §1.2 and reports problems with
// their rule code.
import jmespath from 'jmespath';
import { visit } from './evaluate.js';

export const MAX_LENGTH = 10000;
export const MAX_DEPTH = 64;
const ARITY = { // [min, max] arguments of each portable function
  abs: [1, 1], ceil: [1, 1], contains: [2, 2], ends_with: [2, 2], floor: [1, 1],
  join: [2, 2], keys: [1, 1], length: [1, 1], map: [2, 2], merge: [1, Infinity],
  not_null: [1, Infinity], starts_with: [2, 2], sum: [1, 1], to_array: [1, 1], type: [1, 1],
  values: [1, 1],
};
const NOT_PORTABLE = new Set(['avg', 'reverse', 'sort', 'min', 'max', 'sort_by', 'min_by', 'max_by', 'to_string', 'to_number']);
const STEPS = new Set(['Subexpression', 'IndexExpression', 'Projection', 'FilterProjection', 'ValueProjection', 'Flatten']);
const COLLECTIONS = new Set(['Projection', 'ValueProjection', 'FilterProjection', 'Flatten', 'MultiSelectList', 'MultiSelectHash']);
const COLLECTION_FUNCTIONS = new Set(['keys', 'values', 'to_array', 'merge', 'map']);
const ORDERING = new Set(['LT', 'LTE', 'GT', 'GTE']);
const CHAINS = new Set(['Subexpression', 'IndexExpression']);

// `@` directly followed by a step: found on tokens, since npm's parser may reject it.
function currentWithStep(source) {
  let tokens;
  try { tokens = jmespath.tokenize(source); } catch { return false; }
  return tokens.some((t, i) => t.type === 'Current' && tokens[i + 1] && ['Dot', 'Lbracket', 'Filter', 'Flatten'].includes(tokens[i + 1].type));
}

export class ExpressionProblem extends Error {
  constructor(message, rule, offset = 0) { super(message); this.rule = rule; this.offset = offset; }
}

const syntax = (message, offset = 0) => new ExpressionProblem(message, 'expression-syntax', offset);
const notPortable = (message) => new ExpressionProblem(message, 'expression-not-portable', 0);

// The offset §2 blames: npm's errors carry none, so it is rebuilt from the message.
function blamed(source, error) {
  if (/\(EOF\)|got: EOF/.test(error.message)) return source.length;
  const got = /got: (\w+)$/.exec(error.message); // "Expected X, got: Rbrace": the first such token
  if (got) {
    let tokens = [];
    try { tokens = jmespath.tokenize(source); } catch { /* the lexer failed first: no place */ }
    const token = tokens.find((t) => t.type === got[1]);
    if (token) return token.start;
  }
  const unknown = /Unknown character:(.)/.exec(error.message);
  if (unknown) return Math.max(source.indexOf(unknown[1]), 0);
  const token = /value: (.*)$/.exec(error.message);
  if (token) return Math.max(source.indexOf(token[1]), 0);
  return 0;
}

const childrenOf = (node) => node.type === 'MultiSelectHash' ? node.children.map((p) => p.value)
  : node.type === 'Slice' ? [] : (node.children || []);

// The compiled expression: { source, evaluate(data) }; throws ExpressionProblem.
export function compileExpression(source) {
  if (typeof source !== 'string') throw syntax('an expression must be a string');
  if (source.length > MAX_LENGTH) throw notPortable(`expression longer than ${MAX_LENGTH} characters`);
  if (currentWithStep(source)) throw notPortable('@ followed by a step is not portable: write the step alone');
  let ast;
  try { ast = jmespath.compile(source); } catch (error) { throw syntax(error.message, blamed(source, error)); }
  const stack = [[ast, null, 1]];
  const later = []; // portability problems come after the syntax checks, as in §1.2's order
  while (stack.length) {
    const [node, parent, depth] = stack.pop();
    if (!node) throw syntax('incomplete expression', source.length);
    if (depth > MAX_DEPTH) throw notPortable(`expression nested deeper than ${MAX_DEPTH} levels`);
    if (node.type === 'ExpressionReference' && !(parent && parent.type === 'Function')) {
      throw syntax('&expressions are allowed only as a function argument');
    }
    if (node.type === 'Slice' && node.children[2] === 0) throw syntax('a slice step cannot be 0');
    if (node.type === 'Comparator' && ORDERING.has(node.name)
        && node.children.some((c) => c && c.type === 'Literal' && typeof c.value !== 'number')) {
      later.push('ordering comparisons are portable on numbers only');
    }
    if (STEPS.has(node.type) && node.children[0] && node.children[0].type === 'Current') {
      later.push('@ followed by a step is not portable: write the step alone');
    }
    if (node.type === 'Function') {
      const { name } = node;
      if (NOT_PORTABLE.has(name)) later.push(`${name}() is not portable`);
      else if (!ARITY[name]) later.push(`unknown function ${name}(); only standard functions are portable`);
      else {
        const [low, high] = ARITY[name];
        if (node.children.length < low || node.children.length > high) throw syntax(`${name}() takes ${low} argument(s)`);
        if (name === 'map' && node.children[0].type !== 'ExpressionReference') throw syntax('map() takes an &expression first');
        if ((name === 'keys' || name === 'values') && !(parent && parent.type === 'Function' && parent.name === 'length')) {
          later.push(`${name}() is portable only as the argument of length()`);
        }
        if (name === 'length' && !isCollection(node.children[0])) {
          later.push('length() is portable only of an expression that always yields an array or an object');
        }
      }
    }
    // a chain a.b.c (or a[0][1]) counts one level, as a flat node would
    for (const child of childrenOf(node)) stack.push([child, node, child && child.type === node.type && CHAINS.has(node.type) ? depth : depth + 1]);
  }
  if (later.length) throw notPortable(later[0]);
  return { source, ast, evaluate: (data) => normal(visit(ast, data)) };
}

// §2.2: whether an expression's form can yield a boolean, decided on its parse tree alone.
const BOOLEAN_FUNCTIONS = new Set(['contains', 'starts_with', 'ends_with']);
export function canBeBoolean(node) {
  switch (node.type) {
    case 'Comparator': case 'NotExpression': return true;
    case 'Literal': return typeof node.value === 'boolean';
    case 'AndExpression': case 'OrExpression': return node.children.some(canBeBoolean); // yields an operand
    case 'Subexpression': case 'Pipe': return canBeBoolean(node.children[1]); // the right side's value
    case 'Function': return BOOLEAN_FUNCTIONS.has(node.name) || (node.name === 'not_null' && node.children.some(canBeBoolean));
    default: return false; // a field, @, an index, a slice, a projection, a flatten, a filter, a multi-select
  }
}

function isCollection(node) {
  if (COLLECTIONS.has(node.type)) return true;
  if (node.type === 'Literal') return node.value !== null && typeof node.value === 'object';
  if (node.type === 'OrExpression') return node.children.every(isCollection); // x || `[]`
  if (node.type === 'Pipe') return isCollection(node.children[1]); // a | [*]
  return node.type === 'Function' && COLLECTION_FUNCTIONS.has(node.name);
}

const normal = (value) => (value === undefined ? null : value);

// A predicate holds only where it yields the JSON boolean true (§1.2).
export const holds = (expression, data) => expression.evaluate(data) === true;
