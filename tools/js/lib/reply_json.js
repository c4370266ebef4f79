// The Reply as JSON (specs/README.md §7): the shape Reply.to_dict() writes, so a reply read
// in one language is data another reads back. Messages (`arguments_error`, `reason`) are the
// implementation's own wording; everything else is the same in every language.
import { fates } from './interpreter.js';
import { assistantMessage, convert, answer } from './render.js';

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
    turn: reply.turn ?? null,
  };
}

// The results every kept call is answered with, by its index (tests/test_js_implementation.py
// answers Python's reply the same way): a text, a JSON object, MCP text blocks, an isError result,
// a CallToolResult with no content.
const ANSWERS = ['ok', { temperature: 21 }, [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], { content: [{ type: 'text', text: 'failed' }], isError: true }, { content: [] }];

// One reply for the differential test: its JSON and, for a rendered format, its assistant turn
// (from its items, and converted from its calls alone) and its answers.
export function dumped(spec, reply, response, renderable) {
  const entry = { reply: replyToDict(reply) };
  if (!spec.data.render || !renderable) return entry;
  const attempt = (make) => { try { return { turn: make() }; } catch (e) { if (e.code !== 'render_error') throw e; return { error: e.code }; } };
  const fate = fates(reply);
  const given = new Map(reply.calls.map((_, i) => [i, ANSWERS[i % ANSWERS.length]]).filter(([i]) => fate[i] !== 'dropped'));
  entry.assistant = attempt(() => assistantMessage(spec, reply));
  entry.converted = attempt(() => convert(reply, spec, { lossy: true }));
  entry.answered = attempt(() => answer(spec, reply, given));
  return entry;
}
