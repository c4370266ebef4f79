// toolwire: the tool calls an LLM emitted, read out of any provider's response, stream or model
// text. Every format is a declarative spec (specs/, bundled in this package as data); one
// interpreter runs them all. The functions here use the bundled specs; a Registry of your own
// (Registry.bundled().withSpecs(...)) has the same methods. Nothing here touches a file system.
import data from './specs/bundled.js';
import { Registry, SpecError, ToolwireError, bundled } from './api/registry.js';
import { Tools as ToolsOf, checkedReply } from './api/tools.js';
import { Accumulator as AccumulatorOf, readStreamWith, readStreamAsyncWith } from './api/stream.js';
import { ToolCall, ServerToolCall, Reply, TextReply, StreamUpdate, installDefaultRegistry, convertReply } from './api/values.js';
import { decodeArguments as decode } from './lib/json.js';

export { Registry, SpecError, ToolwireError, ToolCall, ServerToolCall, Reply, TextReply, StreamUpdate };

export const version = data.version;

Registry.bundled = () => bundled(data);
const registry = () => bundled(data);
installDefaultRegistry(registry); // what reply.assistantMessage() and reply.answer() render through

export const read = (format, response, options) => registry().read(format, response, options);
export const extract = (format, response, options) => registry().extract(format, response, options);
export const locate = (format, response, options) => registry().locate(format, response, options);
export const sniffFormat = (response) => registry().sniffFormat(response);
export const fromStructuredOutput = (format, response, toolName, options) => registry().fromStructuredOutput(format, response, toolName, options);
export const extractFromText = (format, text, options) => registry().extractFromText(format, text, options);
export const readText = (format, text, options) => registry().readText(format, text, options);

// A reply's text and calls as format `to`'s assistant turn (a gateway's job), or a render_error
// saying what `to` cannot express. Options: lossy, ids ('mint' or (call, index) => id), registry.
export const convert = (reply, to, options) => convertReply(reply, to, options);

// The request's tools compiled for a format (on a registry: new Tools(format, tools, { registry })).
export class Tools extends ToolsOf {
  constructor(format, tools, { registry: given = null } = {}) { super(format, tools, given || registry()); }

  // A reply whose calls carry their verdict against these tools.
  checkReply(reply) { return checkedReply(reply, this); }
}

export class Accumulator extends AccumulatorOf {
  constructor(format = null, { registry: given = null } = {}) { super(format, given || registry()); }
}

export const readStream = (format, source, { registry: given = null } = {}) => readStreamWith(given || registry(), format, source);
export const readStreamAsync = (format, source, { registry: given = null } = {}) => readStreamAsyncWith(given || registry(), format, source);

// The decoding table of specs/README.md §1.4: { arguments, undecodable, code }.
export function decodeArguments(raw) {
  const { arguments: args, undecodable, code } = decode(raw);
  return { arguments: args, undecodable, code: code ?? null };
}
