// Calls a model wrote into a wire reply's assistant text, lifted out by a text spec
// (specs/README.md §1.10): `read(..., text_format=)`.
import { fates, ToolwireError } from './interpreter.js';

// The skipped record of a text region that gave no call: about the text, not an item.
const skippedRecord = (region, textFormat) => ({
  item_index: null, location: `content[${region.start}:${region.end}]`, item_type: region.code,
  reason: `in the assistant text read as ${textFormat}, characters ${region.start}-${region.end}: ${region.reason}`,
});

// `reply` with the calls `scanText` (a text scanner, lib/text.js) finds in its text after the
// wire's, the answer text as its text, and each region that gave no call in `skipped` after the
// wire's records. A message the text spec refuses is an unmapped_call carrying the lifted reply.
export function liftTextCalls(reply, scanText, textFormat) {
  if (reply.text === null) return reply;
  const got = scanText(reply.text);
  const lifted = {
    ...reply, calls: [...reply.calls, ...got.calls], text: got.text,
    skipped: [...reply.skipped, ...got.skipped.map((region) => skippedRecord(region, textFormat))],
  };
  lifted.fates = fates(lifted);
  if (got.refused.length) {
    const first = got.refused[0];
    throw Object.assign(new ToolwireError('unmapped_call', first.reason, { item_index: null, item_type: first.recipient }), { reply: lifted });
  }
  return lifted;
}
