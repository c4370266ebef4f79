// Time growth measured as a ratio in one run: how much longer 4n takes than n, as
// tests/growth.py measures it on the Python side.
//
// A fixed time would fail on a loaded machine, and so can a ratio of wall-clock times: a burst
// of other work during the 4n run alone inflates it. So the clock here is the process's own
// CPU time (process.cpuUsage, user + system: time spent waiting for a core is not counted), n
// and 4n are timed in alternation (a slower phase of the machine hits both), each side keeps
// its best round, and a ratio over the bound is measured again before it fails. Linear code
// gives about 4x for 4n, quadratic code about 16x on every attempt, so the verdict still tells
// them apart. The figure itself is not benched on the JavaScript side (tools/bench_growth.py
// measures Python's growth); the suite only checks the growth.
// A helper the test files import; `node --test test/` also loads it, as a file of no tests.

// Linear growth gives about 4x for 4n; quadratic about 16x. Between them, with room for noise.
export const GROWTH_BOUND = 8;
// Rounds per attempt; each times n and 4n once, in alternation.
export const ROUNDS = 3;
// Attempts before a ratio over the bound is the answer: noise must push every one of them past
// the bound, a quadratic cost does so each time.
export const ATTEMPTS = 3;

// The process CPU time one run takes, in microseconds.
function once(run) {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

// How much longer `large` takes than `small`: the best rounds of the two, timed in alternation,
// and measured again (up to ATTEMPTS times) while over `bound`. The lowest ratio seen. Each
// runs once untimed first, so neither side is timed while the JIT compiles the code.
export function ratio(small, large, bound = GROWTH_BOUND) {
  small();
  large();
  let best = Infinity;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let smallBest = Infinity;
    let largeBest = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      smallBest = Math.min(smallBest, once(small));
      largeBest = Math.min(largeBest, once(large));
    }
    best = Math.min(best, largeBest / Math.max(smallBest, 1));
    if (best < bound) break;
  }
  return best;
}

// How much longer 4n takes than n; `prepare(n)` builds the inputs before the clock starts and
// gives the run to time.
export function growth(prepare, n, bound = GROWTH_BOUND) {
  return ratio(prepare(n), prepare(4 * n), bound);
}
