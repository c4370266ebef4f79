// The values the package hands out: ToolCall, ServerToolCall, Reply, TextReply, StreamUpdate. Each wraps
// the plain data the implementation in lib/ computes, frozen, with JavaScript's names; toJSON()
// gives the JSON toolwire's Python package writes (ToolCall.to_dict(), Reply.to_dict(),
// TextReply.to_dict(): specs/README.md §7), so a reply read here is data a Python process reads back.
import { fates as fatesOf } from '../lib/interpreter.js';
import { replyToDict } from '../lib/reply_json.js';

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

// The fate of each call in the tool loop (§1.3.1): runnable, dropped or rejected.
export class Reply {
  #raw;

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
