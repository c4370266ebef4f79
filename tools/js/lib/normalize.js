// SDK-object dumps keyed as the SDK, not the wire: specs/README.md §5. Only where the format's
// `normalize.detect` holds on a plain-data reply are its keys renamed by `aliases` (never
// inside a `verbatim` member, named by either key; never onto a wire key that is present); a
// wire body costs nothing.
import { holds } from './expression.js';
import { isObject, put } from './json.js';

function renamed(value, aliases, verbatim) {
  if (Array.isArray(value)) return value.map((v) => renamed(v, aliases, verbatim));
  if (!isObject(value)) return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    const wire = Object.hasOwn(aliases, key) && !Object.hasOwn(value, aliases[key]) ? aliases[key] : key;
    // Verbatim by the SDK's key or by the wire key it becomes (§5: either may be listed).
    put(out, wire, verbatim.has(key) || verbatim.has(wire) ? inner : renamed(inner, aliases, verbatim));
  }
  return out;
}

// The reply as the wire JSON the spec reads.
export function normalized(spec, response) {
  const part = spec.normalize;
  if (!part || !part.detect || !holds(part.detect, response)) return response;
  return renamed(response, part.aliases || {}, new Set(part.verbatim || []));
}
