// The values the package hands out: ToolCall, ServerToolCall, Reply, TextReply, StreamUpdate. Each wraps
// the plain data the implementation in lib/ computes, frozen, with JavaScript's names; toJSON()
// gives the JSON toolwire's Python package writes (ToolCall.to_dict(), Reply.to_dict(),
// TextReply.to_dict(): specs/README.md §7), so a reply read here is data a Python process reads back.
import { fates as fatesOf } from '../lib/interpreter.js';
import { replyToDict } from '../lib/reply_json.js';
import { assistantMessage as assistantMessageOf, answer as answerWith, convert as convertWith } from '../lib/render.js';
import { errorResult as errorResultOf } from '../lib/error_result.js';
import { ToolwireError } from '../lib/interpreter.js';

const frozen = (value) => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) frozen(inner);
    Object.freeze(value);
  }
  return value;
};
const copy = (value) => (value === undefined ? undefined : structuredClone(value));

export class ToolCall {
  #data;

  constructor(data) {
    const json = { ...data };
    if (json.arguments_undecodable && json.arguments_error === undefined && json.arguments_error_code) {
      json.arguments_error = `the arguments do not decode (${json.arguments_error_code})`;
    }
    this.#data = frozen(copy(json));
    this.name = json.name;
    this.arguments = this.#data.arguments;
    this.id = json.id ?? '';
    this.synthetic = !!json.synthetic;
    this.argumentsUndecodable = !!json.arguments_undecodable;
    this.argumentsError = json.arguments_error ?? null;
    this.argumentsErrorCode = json.arguments_error_code ?? null;
    this.rawArguments = this.#data.raw_arguments ?? null;
    this.itemIndex = json.item_index ?? null;
    this.providerData = this.#data.provider_data ?? frozen({});
    this.incomplete = !!json.incomplete;
    this.unknownTool = !!json.unknown_tool;
    this.argumentsInvalid = !!json.arguments_invalid;
    this.argumentsErrors = this.#data.arguments_errors ?? frozen([]);
    Object.freeze(this);
  }

  // ToolCall.to_dict(): name, arguments, id, synthetic, arguments_undecodable always; the rest when set.
  toJSON() {
    const d = this.#data;
    const out = { name: d.name, arguments: copy(d.arguments), id: this.id, synthetic: this.synthetic, arguments_undecodable: this.argumentsUndecodable };
    if (d.arguments_error != null) out.arguments_error = d.arguments_error;
    if (d.arguments_error_code != null) out.arguments_error_code = d.arguments_error_code;
    if (d.unknown_tool) out.unknown_tool = true;
    if (d.arguments_invalid) out.arguments_invalid = true;
    // An unknown tool's one error names the offered tools: written whenever there are errors.
    if (d.arguments_errors && d.arguments_errors.length) out.arguments_errors = copy(d.arguments_errors);
    if (d.incomplete) out.incomplete = true;
    if (d.provider_data && Object.keys(d.provider_data).length) out.provider_data = copy(d.provider_data);
    if (d.raw_arguments !== undefined && d.raw_arguments !== null) out.raw_arguments = copy(d.raw_arguments);
    if (d.item_index !== undefined && d.item_index !== null) out.item_index = d.item_index;
    return out;
  }
}

export class ServerToolCall {
  constructor(data) {
    this.type = data.type;
    this.id = data.id ?? '';
    this.name = data.name ?? null;
    this.status = data.status ?? null;
    this.input = data.input === undefined ? null : frozen(copy(data.input));
    Object.freeze(this);
  }

  toJSON() {
    const out = { type: this.type, id: this.id };
    for (const key of ['name', 'status', 'input']) if (this[key] !== null) out[key] = copy(this[key]);
    return out;
  }
}

// The registry a reply renders through when the caller names none: the bundled one (index.js
// installs it, so these values never import the registry above them).
let defaultRegistry = null;
export const installDefaultRegistry = (get) => { defaultRegistry = get; };

// A call's data as the implementation computes it, from a ToolCall or its JSON.
const callData = (call) => (call instanceof ToolCall ? call.toJSON() : call);
const sameData = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The spec this reply renders through (§6.2): the registry given, else the bundled one; a
// format the bundled registry lacks names the registry option, never falls back.
function specOf(reply, registry) {
  const source = registry || (defaultRegistry && defaultRegistry());
  if (!source) throw new Error("toolwire's registry is not loaded: import 'toolwire' first");
  try {
    return source.spec(reply.format);
  } catch (error) {
    if (registry || !(error instanceof ToolwireError) || error.code !== 'unknown_format') throw error;
    throw new ToolwireError('render_error', `the bundled registry has no format '${reply.format}': a reply read through a Registry of your own renders through it (assistantMessage({ registry }), answer(results, { registry }))`,
      { format: reply.format, reason: 'unknown format' });
  }
}


let rawOf; // a Reply's own data, for convert

// The fate of each call in the tool loop (§1.3.1): runnable, dropped or rejected.
export class Reply {
  #raw;
  static { rawOf = (reply) => reply.#raw; }

  constructor(raw) {
    this.#raw = raw;
    this.format = raw.format;
    this.calls = Object.freeze(raw.calls.map((c) => new ToolCall(c)));
    this.serverCalls = Object.freeze(raw.server_calls.map((s) => new ServerToolCall(s)));
    this.truncated = raw.truncated;
    this.finishReason = raw.finish_reason;
    this.choice = raw.choice ?? 0;
    this.choiceCount = raw.choice_count ?? null;
    this.unknownTypes = frozen([...raw.unknown_types]);
    this.unknown = frozen(copy(raw.unknown));
    // a skipped call item says why (§7), as Python's SkippedItem does
    this.skipped = frozen(raw.skipped.map((r) => ({ ...r, reason: r.reason ?? 'the call item has no usable name' })));
    this.refused = frozen(copy(raw.refused));
    this.items = frozen(copy(raw.items || []));
    this.text = raw.text ?? null;
    // what the assistant turn is written from beside calls and text (§7), or null
    this.turn = raw.turn ? frozen(copy(raw.turn)) : null;
    Object.freeze(this);
  }

  fates() { return fatesOf(this.#raw); }
  #withFate(fate) { const f = this.fates(); return this.calls.filter((_, i) => f[i] === fate); }
  get runnableCalls() { return this.#withFate('runnable'); }
  get droppedCalls() { return this.#withFate('dropped'); }
  get rejectedCalls() { return this.#withFate('rejected'); }
  // a call to run or to answer; a reply whose every call was cut off (dropped) has none
  get hasCalls() { return this.fates().some((fate) => fate !== 'dropped'); }

  // The text to send back as the tool result of a rejected call: every reason it cannot run.
  // A call with nothing wrong with it is a TypeError (run it instead).
  static errorResult(call) { return errorResultOf(callData(call)); }

  errorResult(call) { return Reply.errorResult(call); }

  // The assistant turn to append to the history, in this reply's own format (§6.2): its items
  // as the provider needs them back, each call written back from its ToolCall, dropped calls removed.
  // A turn that would hold nothing (no text, no kept call: a reply a content filter stopped, or
  // cut inside its only call) is a render_error, as in Python: no provider takes it back.
  assistantMessage({ registry = null } = {}) { return assistantMessageOf(specOf(this, registry), this.#raw); }

  // The provider-native message(s) carrying a result for every call of the assistant turn (§6.3).
  // `results`: a Map keyed by a call of reply.calls (or an equal one), its id, or its index in
  // reply.calls; or an array holding one result per call of reply.runnableCalls, in order (as
  // Python's answer takes a list). Each result is a string, JSON data, MCP content blocks, an MCP
  // CallToolResult or an Error. A rejected call given none is answered with its errorResult.
  answer(results, { registry = null } = {}) {
    const spec = specOf(this, registry);
    return answerWith(spec, this.#raw, this.#byIndex(results, spec.format));
  }

  // The results keyed by call index (keys the implementation's answer resolves: numbers, ids).
  #byIndex(results, format) {
    const byIndex = new Map();
    if (Array.isArray(results)) {
      const runnable = this.runnableCalls;
      if (results.length !== runnable.length) {
        throw new ToolwireError('render_error', `answer() takes one result per call of reply.runnableCalls, in order (${runnable.length}), got ${results.length}: key results by index in reply.calls to answer others`, { format, reason: 'results' });
      }
      results.forEach((given, i) => byIndex.set(this.calls.indexOf(runnable[i]), given));
      return byIndex;
    }
    if (!(results instanceof Map)) {
      throw new TypeError('answer() takes a Map (keyed by a call, its id, or its index in reply.calls) or an array with one result per call of reply.runnableCalls');
    }
    const resolved = new Map();
    for (const [key, given] of results) {
      if (key instanceof ToolCall) {
        let index = this.calls.indexOf(key);
        if (index === -1) {
          const equal = this.calls.flatMap((c, i) => (sameData(c.toJSON(), key.toJSON()) ? [i] : []));
          if (equal.length !== 1) {
            throw new ToolwireError('render_error', equal.length ? `${equal.length} calls of this reply equal the call ${key.name}: key their results by their index in reply.calls` : `no call of this reply is the call ${key.name} (id '${key.id}')`, { format, reason: 'results' });
          }
          [index] = equal;
        }
        if (resolved.has(index)) throw new ToolwireError('render_error', `two results for call ${index} (${key.name})`, { format, reason: 'results' });
        resolved.set(index, given);
      } else resolved.set(key, given); // an id or an index: resolved, and checked, by the answer
    }
    return resolved;
  }

  // Reply.to_dict() (§7): the same JSON as Python's, messages aside.
  toJSON() {
    const data = replyToDict({ ...this.#raw, call_records: this.#raw.call_records || [] });
    data.calls = data.calls.map((call, i) => ({ ...this.calls[i].toJSON(), fate: call.fate, record: call.record }));
    data.server_calls = this.serverCalls.map((s) => s.toJSON());
    data.skipped = copy(this.skipped);
    return data;
  }
}

export const replyOf = (raw) => new Reply(raw);

// A reply's text and calls as format `to`'s assistant turn (§6.3), refusing with the reason what
// `to` cannot express: a call without an id where `to` answers by id (unless `ids`: 'mint', or a
// function (call, index) => id), undecodable arguments where its calls carry an object, refused
// items, and — unless `lossy` — provider data its calls do not carry, or server-side calls.
export function convertReply(reply, to, { registry = null, lossy = false, ids = null } = {}) {
  if (!(reply instanceof Reply)) throw new TypeError('convert() takes a Reply');
  if (typeof to !== 'string') throw new TypeError('convert() takes the target format\'s name');
  const source = registry || defaultRegistry();
  const given = typeof ids === 'function' ? (call, index) => ids(new ToolCall(call), index) : ids;
  return convertWith(rawOf(reply), source.spec(to), { lossy, ids: given });
}


// One stretch of model text (§1b.12): a call region that yielded no call (skipped), or a message
// the spec refuses (refused, with its recipient). Offsets count code points, as Python's do.
const region = ({ start, end, text, code, reason, recipient }) => (recipient === undefined || recipient === null
  ? { start, end, text, code, reason } : { start, end, text, code, reason, recipient });

// Model text read with a text spec (§1b.12), as Python's TextReply: the answer (`text`), the
// reasoning and the calls apart, every call region that yielded no call (`skipped`), whether the
// text was cut inside one (`truncated`), and — only in the partial reply an unmapped_call error
// carries — the refused messages.
export class TextReply {
  #raw;

  constructor(raw) {
    this.#raw = { ...raw, calls: raw.calls.map((c) => ({ ...c })) };
    this.text = raw.text;
    this.reasoning = raw.reasoning;
    this.calls = Object.freeze(raw.calls.map((c) => new ToolCall(c)));
    this.skipped = frozen(raw.skipped.map(region));
    this.truncated = !!raw.truncated;
    this.refused = frozen((raw.refused || []).map(region));
    Object.freeze(this);
  }

  // The text says exactly which call its end cut (that one is incomplete), so the split is made
  // with truncated false: no complete call is dropped for standing last.
  fates() { return fatesOf({ calls: this.#raw.calls, truncated: false }); }
  #withFate(fate) { const f = this.fates(); return this.calls.filter((_, i) => f[i] === fate); }
  get runnableCalls() { return this.#withFate('runnable'); }
  get droppedCalls() { return this.#withFate('dropped'); }
  get rejectedCalls() { return this.#withFate('rejected'); }
  // a call to run or to answer; a reply whose every call was cut off (dropped) has none
  get hasCalls() { return this.fates().some((fate) => fate !== 'dropped'); }

  // The text to send back as the tool result of a rejected call (Reply.errorResult).
  static errorResult(call) { return Reply.errorResult(call); }

  errorResult(call) { return Reply.errorResult(call); }

  // TextReply.to_dict(): text, reasoning, calls (each with its fate), skipped, truncated, refused.
  toJSON() {
    const fates = this.fates();
    return {
      text: this.text,
      reasoning: this.reasoning,
      calls: this.calls.map((call, i) => ({ ...call.toJSON(), fate: fates[i] })),
      skipped: copy(this.skipped),
      truncated: this.truncated,
      refused: copy(this.refused),
    };
  }
}

// One thing that became ready while a stream was fed (§9.6).
export class StreamUpdate {
  constructor(update) {
    this.kind = update.kind;
    this.call = update.call ? new ToolCall(update.call) : null;
    this.serverCall = update.server_call ? new ServerToolCall(update.server_call) : null;
    this.itemType = update.item_type ?? null;
    this.reason = update.reason ?? null;
    this.finishReason = update.finish_reason ?? null;
    this.truncated = !!update.truncated;
    Object.freeze(this);
  }

  // StreamUpdate.to_dict(): kind, and the fields the kind has.
  toJSON() {
    const out = { kind: this.kind };
    if (this.call) out.call = { ...this.call.toJSON(), fate: this.call.argumentsUndecodable || this.call.unknownTool || this.call.argumentsInvalid ? 'rejected' : 'runnable' };
    if (this.serverCall) out.server_call = this.serverCall.toJSON();
    if (this.itemType !== null) out.item_type = this.itemType;
    if (this.reason !== null) out.reason = this.reason;
    if (this.kind === 'finished') { out.finish_reason = this.finishReason; out.truncated = this.truncated; }
    return out;
  }
}
