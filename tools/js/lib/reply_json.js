// The Reply as JSON (specs/README.md §7): the shape Reply.to_dict() writes, so a reply read
// in one language is data another reads back. Messages (`arguments_error`, `reason`) are the
// implementation's own wording; everything else is the same in every language.
import { fates } from './interpreter.js';

const CALL_KEYS = ['name', 'arguments', 'id', 'synthetic', 'arguments_undecodable', 'arguments_error',
  'arguments_error_code', 'raw_arguments', 'item_index', 'provider_data', 'incomplete', 'unknown_tool',
  'arguments_invalid', 'arguments_errors'];

function callToDict(call) {
  const out = {};
  for (const key of CALL_KEYS) {
    if (!(key in call)) continue;
    if (key === 'provider_data' && !Object.keys(call.provider_data).length) continue;
    if (['incomplete', 'unknown_tool', 'arguments_invalid'].includes(key) && !call[key]) continue;
    if (key === 'arguments_errors' && !call[key].length) continue;
    out[key] = call[key];
  }
  return out;
}

export function replyToDict(reply) {
  const fate = fates(reply);
  return {
    format: reply.format,
    calls: reply.calls.map((call, i) => ({ ...callToDict(call), fate: fate[i], record: reply.call_records[i] ?? null })),
    server_calls: reply.server_calls,
    truncated: reply.truncated,
    finish_reason: reply.finish_reason,
    choice: reply.choice,
    choice_count: reply.choice_count,
    unknown_types: reply.unknown_types,
    unknown: reply.unknown,
    skipped: reply.skipped,
    refused: reply.refused,
    items: reply.items,
    text: reply.text,
  };
}
