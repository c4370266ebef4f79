// Checked by `tsc --noEmit` (tests/test_js_package.py): the declarations describe the API as a
// TypeScript user calls it, every public name at least once.
import {
  read, extract, locate, sniffFormat, fromStructuredOutput, extractFromText, readText, readStream, readStreamAsync,
  decodeArguments, convert, version, Registry, Tools, Accumulator, ToolwireError, SpecError, Reply, TextReply, ToolCall, StreamUpdate,
  type ReplyJSON, type TextReplyJSON, type TextRegion, type ToolCallJSON, type Fate, type Json, type ToolResults,
} from 'toolwire';

const response = { choices: [{ message: { tool_calls: [] }, finish_reason: 'stop' }] };
const reply: Reply = read('openai', response, { strict: null, choice: 0 });
const json: ReplyJSON = reply.toJSON();
const fates: Fate[] = reply.fates();
const first: ToolCall | undefined = reply.calls[0];
const firstJson: ToolCallJSON | undefined = first?.toJSON();
const names: string[] = extract('openai', JSON.stringify(response)).map((c) => c.name);
const items = locate('openai', response);
const sniffed: string | null = sniffFormat(response);
const forced: ToolCall = fromStructuredOutput('openai', response, 'answer');
const { cleanText, calls } = extractFromText('hermes', 'text', { params: { tag: 'tool_call' } });
const text = readText('hermes', 'text').text;
const textReply: TextReply = readText('hermes', 'text', { tools: { f: { type: 'object' }, g: null } });
const textJson: TextReplyJSON = textReply.toJSON();
const skipped: readonly TextRegion[] = textReply.skipped;
const textFates: Fate[] = textReply.fates();
const toRun: ToolCall[] = textReply.runnableCalls;
const reasoning: string = textReply.reasoning;
const tools = new Tools('openai', [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]);
const checked: Reply = read('openai', response, { tools });
const textChecked: boolean = readText('hermes', 'text', { tools }).truncated;
const schema = tools.parameters('f');
const acc = new Accumulator('anthropic');
const updates: StreamUpdate[] = [...acc.feed({ type: 'ping' }), ...acc.feedBytes(new Uint8Array()), ...acc.close()];
const streamed: Reply = acc.reply({ allowIncomplete: true });
const whole: Reply = readStream(null, [new Uint8Array()]);
const later: Promise<Reply> = readStreamAsync('openai', [{ choices: [] }]);
const mine: Registry = Registry.bundled().withSpecs({ wire: { acme: 'spec_version: 1' } });
const formats: string[] = mine.formats;
const decoded: boolean = decodeArguments('{"a": 1}').undecodable;
const turn: Json = reply.assistantMessage({ registry: mine });
const results: ToolResults = new Map<ToolCall | string | number, Json | Error>([[0, 'ok'], ['call_1', { temperature: 21 }], [1, new Error('failed')]]);
const answered: Json[] = [...reply.answer(results), ...reply.answer(['ok', [{ type: 'text', text: 'a' }]])];
const rejected: string = first ? reply.errorResult(first) + Reply.errorResult(first.toJSON()) + TextReply.errorResult(first) : '';
const converted: Json = convert(reply, 'anthropic', { lossy: true, ids: (call, index) => `${call.name}_${index}` });
const minted: Json = convert(reply, 'mistral', { ids: 'mint', registry: null });
try { read(null, '{}'); } catch (error) {
  if (error instanceof SpecError) console.log(error.problems[0]?.rule);
  else if (error instanceof ToolwireError) console.log(error.code);
}
console.log(version, json, fates, firstJson, names, items, sniffed, forced, cleanText, calls, text, checked, schema,
  textReply, textJson, skipped, textFates, toRun, reasoning, textChecked,
  updates, streamed, whole, later, formats, decoded, turn, answered, rejected, converted, minted);
