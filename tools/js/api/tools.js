// The request's tools (specs/README.md §8): compiled once for a format, then every call checked
// against them — unknown_tool, or arguments_invalid with each error's pointer and keyword.
import { compileTools, checkCalls } from '../lib/tools.js';
import { Reply, ToolCall } from './values.js';

export class Tools {
  // tools: the request body, its tool list, or JSON text of either, exactly as sent.
  constructor(format, tools, registry) {
    this.format = format;
    // Every spec at hand: a tool list in another format's shape is refused naming it (§8.1).
    this.compiled = compileTools(registry.spec(format), tools, Object.entries(registry.specs()));
    this.names = Object.freeze([...this.compiled.names]);
    Object.freeze(this);
  }

  // The tool's parameters JSON Schema after translation and strict mode; null when unchecked; undefined when not offered.
  parameters(name) { return this.names.includes(name) ? structuredClone(this.compiled.parameters[name]) : undefined; }

  has(name) { return this.names.includes(name); }

  // The call with its verdict.
  check(call) {
    const data = call instanceof ToolCall ? call.toJSON() : call;
    return new ToolCall(checkCalls(this.compiled, [data])[0]);
  }
}

// A reply whose calls carry their verdicts.
export function checkedReply(reply, tools) {
  const data = reply.toJSON();
  const raw = { ...data, calls: data.calls.map((c) => tools.check(c).toJSON()), call_records: data.calls.map((c) => c.record).filter(Boolean) };
  return new Reply(raw);
}
