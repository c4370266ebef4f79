// What an event that is not this stream's is (specs/README.md §9.14): a finished reply (a
// format's top-level sniff holds, its stream shape does not), or an event of another format's
// stream (the first base format whose shape holds), named so the user knows what they fed. And
// whose failure event an unsniffed stream's first event is (§9.5 step 3).
import { sniff } from './interpreter.js';
import { partOf } from './stream_part.js';

const holds = (expression, event) => {
  if (!expression) return false;
  try { return expression.evaluate(event) === true; } catch { return false; }
};
const shapeOf = (spec) => { const part = spec && partOf(spec); return part ? part.shape : null; };
const article = (name) => ('aeiou'.includes(name[0]) ? 'an' : 'a');

// The specs with a stream.sniff, by descending priority then name (§9.5 step 3).
export function sniffOrder(specs) {
  return Object.entries(specs).map(([name, s]) => [name, s, partOf(s)])
    .filter(([, , p]) => p && p.sniff).sort(([a, , p], [b, , q]) => q.sniff.priority - p.sniff.priority || (a < b ? -1 : 1));
}

// Whether a stream part's `error` entry (§9.8) catches the event, typed as §9.5 step 4 types it.
function errorCatches(part, event, sseName) {
  const error = part && part.error;
  if (!error || (error.events === null && error.when === null)) return false;
  try {
    const type = part.event_type ? part.event_type.evaluate(event) : null;
    const named = type === null ? sseName : type;
    if (error.events && (typeof named !== 'string' || !error.events.includes(named))) return false;
    return !error.when || error.when.evaluate(event) === true;
  } catch { return false; }
}

// §9.5 step 3: the format whose provider failure event `event` is, for a stream no stream.sniff
// recognises. The provider is named as read() names an error body (§1.12): the first format in
// sniff order whose top-level `error` holds, the answer when its stream `error` catches the
// event (else none: a finished failed reply is no stream event); where no top-level `error`
// holds, the first format in stream sniff order whose stream `error` catches it.
export function errorFormat(specs, event, sseName = null) {
  const named = Object.values(specs).filter((s) => s.sniff)
    .sort((a, b) => b.sniff.priority - a.sniff.priority || (a.format < b.format ? -1 : 1));
  for (const spec of named) {
    if (spec.error && holds(spec.error.when, event)) return errorCatches(partOf(spec), event, sseName) ? spec.format : null;
  }
  const found = sniffOrder(specs).find(([, , part]) => errorCatches(part, event, sseName));
  return found ? found[0] : null;
}

// Rule 1: { reason, looks_like, finished_reply } when the event is a finished reply, else null.
export function finishedReply(specs, bound, event) {
  let format = null;
  if (bound && bound.sniff && holds(bound.sniff.when, event)) format = bound.format;
  else {
    format = sniff(specs, event);
    // A dialect sniffs as its base: name the bound format when it is of the same family.
    const mine = shapeOf(bound); const theirs = format && shapeOf(specs[format]);
    if (format && mine && theirs && mine.source === theirs.source) format = bound.format;
  }
  if (!format || holds(shapeOf(specs[format]), event)) return null;
  return { reason: `the event is a finished ${format} reply, not an event of a stream: read it with read()`, looks_like: format, finished_reply: true };
}

// Why an event on which the bound format's shape does not hold is refused.
export function whatItIs(specs, bound, event) {
  const found = finishedReply(specs, bound, event);
  if (found) return found;
  for (const [name, spec] of sniffOrder(specs)) {
    if (name !== bound.format && holds(shapeOf(spec), event)) {
      return { reason: `the event looks like ${article(name)} ${name} stream event, not ${article(bound.format)} ${bound.format} one`, looks_like: name, finished_reply: false };
    }
  }
  const shape = shapeOf(bound);
  return { reason: `the event is not ${article(bound.format)} ${bound.format} stream event${shape ? ` (stream.shape: ${shape.source})` : ''}`, looks_like: null, finished_reply: false };
}
