// A tool schema's `pattern` and `patternProperties` run bounded (specs/README.md §8.1, §8.2):
// the pattern is the developer's, the text the model's, so no check may hang a loop.
//
// * `regExpEngine` is ajv's `code.regExp`: every pattern ajv tests (`pattern`,
//   `patternProperties`, and the patterns `additionalProperties` consults) is a
//   BoundedRegExp (lib/regex), never a RegExp.
// * A search that runs out of steps answers "no match" to ajv, and the value gets its own
//   error, keyword `regex_budget`, at its pointer (a `patternProperties` key: the property's
//   pointer, as Python reports it): `withBudgetChecks` adds a keyword beside every pattern
//   of the compiled copy of the schema that reports it, and `settle` drops the `pattern`
//   error ajv gave the same value for the same pattern.
// * `checkPatterns` compiles every pattern when the tools are built, so a pattern the engines
//   refuse is `invalid_tools` then, naming where it is.
import { boundedRegExp, BUDGET, DEFAULT_STEPS, RegexUnsupported } from './regex/index.js';
import { copySchema, subschemas } from './tools_schema.js';

const BUDGET_KEYWORD = 'x-toolwire-regex-budget';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const escape = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const problem = (pointer, message) => Object.assign(new Error(message), { pointer });

export function regExpEngine(source, flags) {
  if (flags !== 'u') throw new Error('toolwire runs patterns with the u flag only (ajv unicodeRegExp)');
  return boundedRegExp(source);
}
regExpEngine.code = 'toolwire.boundedRegExp'; // ajv names the engine so in standalone code (unused)

function budgetError(regExp, instancePath) {
  return {
    instancePath,
    keyword: 'regex_budget',
    params: { pattern: regExp.source },
    message: `the value could not be checked against ${JSON.stringify(regExp.source)}: the call's searches ran out of their budget of ${DEFAULT_STEPS.toLocaleString('en-US')} steps`,
  };
}

// The keyword that reports the searches of its schema's patterns that ran out of steps.
export function addBudgetKeyword(ajv) {
  ajv.addKeyword({
    keyword: BUDGET_KEYWORD,
    schemaType: 'boolean',
    errors: true,
    compile(_, parentSchema) {
      const value = typeof parentSchema.pattern === 'string' ? boundedRegExp(parentSchema.pattern) : null;
      const keys = isObject(parentSchema.patternProperties) ? Object.keys(parentSchema.patternProperties).map(boundedRegExp) : [];
      const check = (data, { instancePath }) => {
        const errors = [];
        if (value && typeof data === 'string' && value.search(data) === BUDGET) errors.push(budgetError(value, instancePath));
        if (keys.length && isObject(data)) {
          for (const key of Object.keys(data)) {
            for (const regExp of keys) if (regExp.search(key) === BUDGET) errors.push(budgetError(regExp, `${instancePath}/${escape(key)}`));
          }
        }
        check.errors = errors;
        return errors.length === 0;
      };
      return check;
    },
  });
  return ajv;
}

const hasPatterns = (node) => typeof node.pattern === 'string' || isObject(node.patternProperties);

// Every schema node of `schema` with its pointer (each node once).
function* nodes(schema) {
  const seen = new Set();
  const stack = [[schema, '']];
  while (stack.length) {
    const [node, pointer] = stack.pop();
    if (!isObject(node) || seen.has(node)) continue;
    seen.add(node);
    yield [node, pointer];
    const subs = [...subschemas(node)].reverse();
    for (const [keyword, key, sub] of subs) stack.push([sub, key === null ? `${pointer}/${keyword}` : `${pointer}/${keyword}/${escape(key)}`]);
  }
}

// Throws {pointer, message} for a pattern that is no regular expression or that the bounded
// engines do not run (the pointer: the `pattern` keyword, or `patternProperties`).
export function checkPatterns(schema) {
  for (const [node, pointer] of nodes(schema)) {
    const found = [];
    if (typeof node.pattern === 'string') found.push([`${pointer}/pattern`, node.pattern]);
    if (isObject(node.patternProperties)) for (const key of Object.keys(node.patternProperties)) found.push([`${pointer}/patternProperties`, key]);
    for (const [where, source] of found) {
      try { boundedRegExp(source); } catch (error) {
        if (error instanceof SyntaxError) throw problem(where, `the pattern ${JSON.stringify(source)} is not a regular expression: ${error.message}`);
        if (error instanceof RegexUnsupported) throw problem(where, `the pattern ${JSON.stringify(source)} cannot be run with a bound on its time: ${error.message}`);
        throw error;
      }
    }
  }
}

// The schema ajv compiles: a copy with the budget keyword beside every pattern (the schema
// itself when it has none). Only subschema places are copied: a `const` or `enum` value that
// looks like a schema stays as it is.
export function withBudgetChecks(schema) {
  if (![...nodes(schema)].some(([node]) => hasPatterns(node))) return schema;
  return copySchema(schema, (node, out) => { if (hasPatterns(node)) out[BUDGET_KEYWORD] = true; });
}

// ajv's errors with a `pattern` error dropped where the same value got `regex_budget` for
// the same pattern (the search did not answer: the value did not fail it).
export function settle(errors) {
  const overrun = new Set(errors.filter((e) => e.keyword === 'regex_budget').map((e) => `${e.instancePath}\u0000${e.params.pattern}`));
  if (!overrun.size) return errors;
  return errors.filter((e) => !(e.keyword === 'pattern' && overrun.has(`${e.instancePath}\u0000${e.params.pattern}`)));
}
