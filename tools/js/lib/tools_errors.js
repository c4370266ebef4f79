// Which of ajv's errors a tool check reports (specs/README.md §8.2), so that a call gets the
// errors jsonschema's iter_errors gives at the top: an applicator (anyOf, oneOf, contains)
// reports once, as itself, without its subschemas' errors; `if` is never an error itself; `propertyNames`
// reports the failing keywords of the name's schema, not a summary error of its own.
import { subschemas } from './tools_schema.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const APPLICATORS = new Set(['anyOf', 'oneOf', 'contains']);
const SUMMARIES = new Set(['if', 'propertyNames']);

// The node at a `#/…` schema path of `root` (undefined where the path is no JSON pointer of it).
function at(root, path) {
  if (path === '#') return root;
  if (!path.startsWith('#/')) return undefined;
  let node = root;
  for (const step of path.slice(2).split('/')) {
    const key = decodeURIComponent(step).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(key)) node = node[Number(key)];
    else if (isObject(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

// The `$ref`s met under `node`, followed through the ones that are JSON pointers of `root`:
// ajv names an error behind a `$ref` by the reference's own text, not by the path to it.
function refsUnder(root, node) {
  const refs = new Set();
  const seen = new Set();
  const stack = [node];
  while (stack.length) {
    const here = stack.pop();
    if (Array.isArray(here)) { stack.push(...here); continue; } // the applicator's branches
    if (!isObject(here) || seen.has(here)) continue;
    seen.add(here);
    for (const keyword of ['$ref', '$dynamicRef']) {
      if (typeof here[keyword] !== 'string') continue;
      refs.add(here[keyword]);
      const target = at(root, here[keyword]);
      if (target !== undefined) stack.push(target);
    }
    for (const [, , sub] of subschemas(here)) stack.push(sub);
  }
  return refs;
}

const under = (path, prefix) => path === prefix || path.startsWith(`${prefix}/`);

// ajv reports a failing applicator after its subschemas' errors, which come right before it:
// walking back from the applicator, an error is a branch's while it lies at or under the
// applicator's value and its schema path is under the applicator or behind a $ref it reaches.
function branchErrors(root, errors, index) {
  const applicator = errors[index];
  const refs = [...refsUnder(root, at(root, applicator.schemaPath))];
  const found = [];
  for (let i = index - 1; i >= 0; i -= 1) {
    const error = errors[i];
    if (!under(error.instancePath, applicator.instancePath)) break;
    const path = error.schemaPath;
    if (!path.startsWith(`${applicator.schemaPath}/`) && !refs.some((ref) => under(path, ref))) break;
    found.push(i);
  }
  return found;
}

// `errors` (ajv's, in its order) of a call checked against `root` (the schema ajv compiled),
// without those jsonschema does not report.
export function reportedErrors(root, errors) {
  const dropped = new Set();
  errors.forEach((error, index) => {
    if (APPLICATORS.has(error.keyword)) for (const i of branchErrors(root, errors, index)) dropped.add(i);
  });
  return errors.filter((error, index) => !dropped.has(index) && !SUMMARIES.has(error.keyword));
}
