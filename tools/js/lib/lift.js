// Calls a model wrote into a wire reply's assistant text, lifted out by a text spec
// (specs/README.md §1.10): `read(..., text_format=)`.
import { fates, ToolwireError } from './interpreter.js';
import { mintId } from './render.js';

// The skipped record of a text region that gave no call: about the text, not an item.
const skippedRecord = (region, textFormat) => ({
  item_index: null, location: `content[${region.start}:${region.end}]`, item_type: region.code,
  reason: `in the assistant text read as ${textFormat}, characters ${region.start}-${region.end}: ${region.reason}`,
});

// The lifted calls without an id given one by `ids` ('mint', or a function of the call and its
// index in the reply's calls), none taken by another call (§1.10, the ids of §6.3).
function named(calls, first, ids) {
  if (!ids) return calls;
  const taken = new Set(calls.filter((c) => c.id).map((c) => c.id));
  return calls.map((call, index) => {
    if (index < first || call.id) return call;
    let given;
    if (ids === 'mint') {
      given = mintId(call, index);
      for (let salt = 1; taken.has(given); salt++) given = mintId(call, index + salt * calls.length);
    } else {
      given = ids(call, index);
      if (typeof given !== 'string' || !given || taken.has(given)) throw new TypeError(`ids() gave ${JSON.stringify(given)} for call ${index} (${call.name}): an id must be a non-empty string no other call has`);
    }
    taken.add(given);
    return { ...call, id: given };
  });
}

// `reply` with the calls `scanText` (a text scanner, lib/text.js) finds in its text after the
// wire's, the answer text as its text, and each region that gave no call in `skipped` after the
// wire's records. A message the text spec refuses is an unmapped_call carrying the lifted reply.
// `ids` names the lifted calls that have no id; the turn carries them after the reply's items,
// so the assistant turn and the answers agree.
export function liftTextCalls(reply, scanText, textFormat, ids = null) {
  if (reply.text === null) return reply;
  const got = scanText(reply.text);
  const first = reply.calls.length;
  const calls = named([...reply.calls, ...got.calls], first, got.calls.length ? ids : null);
  const lifted = {
    ...reply, calls, text: got.text,
    skipped: [...reply.skipped, ...got.skipped.map((region) => skippedRecord(region, textFormat))],
  };
  if (reply.turn && got.calls.length) {
    lifted.turn = { ...reply.turn, items: [...reply.turn.items, ...got.calls.map((_, i) => first + i)] };
  }
  lifted.fates = fates(lifted);
  if (got.refused.length) {
    const first = got.refused[0];
    throw Object.assign(new ToolwireError('unmapped_call', first.reason, { item_index: null, item_type: first.recipient }), { reply: lifted });
  }
  return lifted;
}
