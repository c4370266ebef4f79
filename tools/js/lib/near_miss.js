// "did you mean 'x'?" for a format name that is not found, as Python's toolwire.errors.near_miss
// gives it: the same name in another case first, else the closest spelling whose similarity is
// at least 0.75 — the ratio of Python's difflib (twice the characters of the matching blocks,
// over both lengths), so both implementations suggest the same name.

// The characters two strings share in matching blocks: the longest common block (earliest in
// `a`, then in `b`), then the same on each side of it.
function matched(a, b) {
  let best = { i: 0, j: 0, k: 0 };
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      let k = 0;
      while (i + k < a.length && j + k < b.length && a[i + k] === b[j + k]) k++;
      if (k > best.k) best = { i, j, k };
    }
  }
  if (best.k === 0) return 0;
  return best.k + matched(a.slice(0, best.i), b.slice(0, best.j))
    + matched(a.slice(best.i + best.k), b.slice(best.j + best.k));
}

const ratio = (a, b) => (a.length + b.length ? (2 * matched(a, b)) / (a.length + b.length) : 1);
const fold = (s) => s.toLowerCase();

// The hint ('; did you mean ...?') for `name` among `known`, or ''.
export function nearMiss(name, known) {
  if (typeof name !== 'string') return '';
  const folded = new Map(known.map((k) => [fold(k), k]));
  if (folded.has(fold(name))) return `; did you mean '${folded.get(fold(name))}'?`;
  let best = null;
  for (const candidate of [...folded.keys()].sort()) {
    const score = ratio(candidate, fold(name));
    // difflib keeps the highest score, a tie going to the greater name
    if (score >= 0.75 && (!best || score > best.score || (score === best.score && candidate > best.candidate))) best = { score, candidate };
  }
  return best ? `; did you mean '${folded.get(best.candidate)}'?` : '';
}

// The name among `names` that `name` spells, case aside, or null.
export function ofKind(name, names) {
  if (typeof name !== 'string') return null;
  return names.find((k) => fold(k) === fold(name)) ?? null;
}
