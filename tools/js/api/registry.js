// A Registry: wire and text specs by format name, with the operations of the package. Specs come
// as data (the bundled ones from specs/bundled.js, or any object of that shape: `toolwire specs
// export`'s specs.json), compiled on first use; a user's own specs are YAML text or data, loaded
// and checked as the bundled ones were (specs/README.md §2), and may extend the bundled ones.
import { compileSpec, loadFile, sortProblems } from '../lib/loader.js';
import { read as readSpec, readIn, sniff, sniffFormat, fromStructuredOutput, withNested, visit, emptyReply, ToolwireError } from '../lib/interpreter.js';
import { holds } from '../lib/expression.js';
import { loads, isObject } from '../lib/json.js';
import { normalized } from '../lib/normalize.js';
import { textScanner } from '../lib/text.js';
import { compileTools, checkCalls, toolsFromSchemas } from '../lib/tools.js';
import { provideMetaSchemas } from '../lib/meta_schemas.js';
import { readYaml } from '../lib/yaml.js';
import { Reply, TextReply, ToolCall } from './values.js';
import { Tools } from './tools.js';
import { liftTextCalls } from '../lib/lift.js';
import { nearMiss, ofKind } from '../lib/near_miss.js';

export { ToolwireError };

// A spec failed to load: `problems` holds every problem, located (file, line, col, pointer, rule, message).
export class SpecError extends ToolwireError {
  constructor(problems) {
    const sorted = sortProblems(problems);
    super('spec_error', sorted.map((p) => `${p.file}:${p.line}:${p.col}: ${p.pointer || '/'}: ${p.message} [${p.rule}]`).join('\n') || 'invalid spec', { problems: sorted });
  }
}

const parsed = (data) => {
  if (typeof data !== 'string') return data;
  try { return loads(data); } catch { throw new ToolwireError('malformed_response', 'response is not JSON', { reason: 'response is not JSON' }); }
};
const formatName = (format) => {
  if (typeof format !== 'string') throw new TypeError('the format must be a string (null sniffs it, where allowed)');
  return format;
};
// A resolved spec as the loader takes a base: its data, its places in a file it never had.
const asBase = (format, data) => ({ data, originOf: (pointer) => [{ path: `${format}.yaml`, values: {}, keys: {} }, pointer] });

export class Registry {
  #wire; #compiled = new Map(); #text; #scanners = new Map();

  // specs: { wire: {format: resolved spec data}, text: {format: text spec data}, schema?: {file name: meta-schema} }
  constructor(specs) {
    if (!isObject(specs) || !isObject(specs.wire)) throw new TypeError('a Registry takes { wire: {format: spec data}, text: {format: spec data} }');
    if (isObject(specs.schema)) provideMetaSchemas(specs.schema);
    this.#wire = { ...specs.wire };
    this.#text = { ...(specs.text || {}) };
    Object.freeze(this);
  }

  static fromObject(specs) { return new Registry(specs); }

  get formats() { return Object.keys(this.#wire).sort(); }
  get textFormats() { return Object.keys(this.#text).sort(); }

  // The compiled spec of a format, or an unknown_format error.
  spec(format) {
    if (!this.#compiled.has(format)) {
      const data = this.#wire[formatName(format)];
      if (!data) throw this.#unknownWire(format);
      this.#compiled.set(format, compileSpec(data));
    }
    return this.#compiled.get(format);
  }

  // unknown_format naming the near miss, or the text format the name is (as Python's does).
  #unknownWire(format) {
    const text = ofKind(format, this.formats) === null ? ofKind(format, this.textFormats) : null;
    const near = text === null ? nearMiss(format, this.formats)
      : `; '${text}' is a text format (tool calls inside model text): read the text with readText('${text}', text), or a reply's text with read(..., { textFormat: '${text}' })`;
    return new ToolwireError('unknown_format', `unknown format '${format}'${near}; known formats: ${this.formats.join(', ')}`, { format });
  }

  // Every compiled spec by format (sniffing and streams look at them all).
  specs() { return Object.fromEntries(this.formats.map((f) => [f, this.spec(f)])); }

  // A new registry with the user's specs added ({wire: {name: YAML text or data}, text: {...}});
  // a wire spec may extend a bundled one or another of these. A SpecError lists every problem.
  withSpecs({ wire = {}, text = {} } = {}) {
    const files = Object.fromEntries(Object.entries(wire).map(([name, source]) => [
      `${name}.yaml`, typeof source === 'string' ? source : JSON.stringify(source)]));
    const below = Object.fromEntries(Object.entries(this.#wire).map(([f, data]) => [f, asBase(f, data)]));
    const added = {}; const problems = [];
    for (const file of Object.keys(files)) {
      const loaded = loadFile(file, files, below, '');
      problems.push(...loaded.problems);
      if (loaded.spec) {
        const { extends: base, remove: _removed, ...data } = loaded.spec.data;
        added[file.replace(/\.yaml$/, '')] = base ? { ...data, 'x-extended-from': base } : data;
      }
    }
    const texts = {};
    for (const [name, source] of Object.entries(text)) {
      const doc = typeof source === 'string' ? readYaml(source, `${name}.yaml`) : { data: source, problems: [] };
      problems.push(...doc.problems);
      if (!doc.problems.length) {
        try { textScanner(doc.data); } catch (error) {
          problems.push({ file: `${name}.yaml`, line: 1, col: 1, pointer: '', rule: 'text-spec', message: error.message });
        }
        texts[name] = doc.data;
      }
    }
    if (problems.length) throw new SpecError(problems);
    return new Registry({ wire: { ...this.#wire, ...added }, text: { ...this.#text, ...texts } });
  }

  // The format whose sniff predicate holds on the response's top-level shape, or null — also for
  // a part of a reply (a choice, a message, a content block), which is no reply of any format (§1.11).
  sniffFormat(data) {
    let response;
    try { response = parsed(data); } catch { return null; }
    return isObject(response) ? sniffFormat(this.specs(), response) : null;
  }

  // The spec of `format`, or of the sniffed format when it is null (a stream event is refused, naming the accumulator).
  #specFor(format, data) {
    if (format !== null && format !== undefined) return this.spec(format);
    const response = parsed(data);
    const found = isObject(response) ? sniff(this.specs(), response) : null;
    if (found === null) {
      for (const spec of Object.values(this.specs())) {
        if (spec.stream_event && isObject(response) && holds(spec.stream_event, response)) readSpec(spec, response);
      }
      throw new ToolwireError('unknown_format', 'no format recognises this response\'s shape', { format: null });
    }
    return this.spec(found);
  }

  // Everything at once (§1.3): calls, server calls, truncation, finish reason, loose ends.
  // textFormat names a text format whose calls the model wrote into the reply's assistant text
  // (a server without a tool parser, §1.10): they come after the wire calls, the text is the
  // answer without them, and each region that gave no call is a skipped record.
  // A lifted call without an id gets the id convert's `ids: 'mint'` gives where the format pairs
  // results by id (`requires_id`); `ids: 'mint'` mints in every format, a function gives your own.
  read(format, data, { strict = null, choice = null, tools = null, textFormat = null, textParams = {}, ids = null } = {}) {
    if (format !== null && format !== undefined) this.spec(format); // an unknown name, named
    const lifting = textFormat !== null && textFormat !== undefined;
    if (ids !== null && ids !== undefined && (!lifting || (ids !== 'mint' && typeof ids !== 'function'))) {
      throw new TypeError(`ids gives ids to the calls lifted out of the text: it needs textFormat, and is 'mint' or a function (call, index) => string, not ${String(ids)}`);
    }
    const textSpec = lifting ? this.#textSpec(textFormat) : null; // an unknown name, named first
    // With every spec at hand: an error body or another format's reply is named (§1.11-1.12).
    let raw = readIn(this.specs(), format ?? null, data, strict, choice);
    const offered = tools === null || tools === undefined ? null
      : tools instanceof Tools ? tools : new Tools(raw.format, tools, this);
    if (lifting) {
      // The same tools type the lifted calls' values (§1b.4) and check them.
      const scan = offered ? textScanner(textSpec, textParams, { tools: offered })
        : this.#scanner(textFormat, textParams, null);
      try {
        const giver = ids ?? (this.spec(raw.format).data.render?.requires_id ? 'mint' : null);
        raw = liftTextCalls(raw, scan, textFormat, giver);
      } catch (error) {
        if (error instanceof ToolwireError && error.reply && !(error.reply instanceof Reply)) error.reply = new Reply(error.reply);
        throw error;
      }
    }
    if (offered) raw.calls = checkCalls(this.#compiledTools(raw.format, offered), raw.calls);
    return new Reply(raw);
  }

  // The calls the client must run, as ToolCall values (read(...).calls).
  extract(format, data, options = {}) { return this.read(formatName(format), data, options).calls; }

  // The raw call items, unparsed, in response order; an item the spec refuses throws as read does.
  locate(format, data, { strict = null } = {}) {
    const spec = this.spec(formatName(format));
    readIn(this.specs(), spec.format, data, strict); // every refusal and malformation, as read() raises them
    const response = normalized(spec, parsed(data));
    const reply = emptyReply(spec); const found = [];
    for (const source of spec.items) {
      const value = source.select.evaluate(response);
      const items = value === null ? [] : Array.isArray(value) ? value : [value];
      for (const [index, item] of items.entries()) {
        for (const walked of withNested(source, item, index)) {
          visit(spec, reply, [], walked, false);
          if (reply.items[reply.items.length - 1].kind === 'calls') found.push(structuredClone(walked.item));
        }
      }
    }
    return found;
  }

  // A reply whose text answers a response-format request, as a synthetic call of toolName (§1.8).
  fromStructuredOutput(format, data, toolName, { choice = null } = {}) {
    return new ToolCall(fromStructuredOutput(this.#specFor(format, data), data, toolName, choice));
  }

  #scanner(format, params, tools) {
    const data = this.#textSpec(format);
    if (tools !== null && tools !== undefined) return textScanner(data, params, textTools(tools));
    const key = `${format}\u0000${JSON.stringify(Object.entries(params).sort())}`;
    if (!this.#scanners.has(key)) this.#scanners.set(key, textScanner(data, params));
    return this.#scanners.get(key);
  }

  #textSpec(format) {
    const data = this.#text[format];
    if (!data) {
      const wire = ofKind(format, this.textFormats) === null ? ofKind(format, this.formats) : null;
      const near = wire === null ? nearMiss(format, this.textFormats)
        : `; '${wire}' is a wire format (a provider's JSON reply): read it with read('${wire}', response)`;
      throw new ToolwireError('unknown_format', `unknown text format '${format}'${near}; known text formats: ${this.textFormats.join(', ')}`, { format });
    }
    return data;
  }

  // The scanner's whole reading; a message the spec refuses (§1b.3) throws unmapped_call with the
  // partial TextReply, as every reading of text does: never raw tokens left in the text.
  #readText(format, text, params, tools) {
    if (typeof text !== 'string') throw new TypeError('the text must be a string');
    const found = this.#scanner(format, params, tools)(text);
    if (found.refused.length) {
      const first = found.refused[0]; // text has no items: index 0, the location says where
      const name = this.#textSpec(format).format;
      const location = `text[${first.start}:${first.end}]`;
      throw new ToolwireError('unmapped_call', `${name}: item 0 at ${location} of type '${first.recipient}' is not mapped: ${first.reason}`,
        { format: name, item_index: 0, item_type: first.recipient, reason: first.reason, location, reply: new TextReply(found) });
    }
    return found;
  }

  // Tool calls a model wrote inside its text (§1b): the clean text (reasoning left in as
  // written) and the calls. With tools, the calls are checked as readText's are.
  extractFromText(format, text, { params = {}, tools = null } = {}) {
    const found = this.#readText(format, text, params, tools);
    return { cleanText: found.clean_text, calls: found.calls.map((c) => new ToolCall(c)) };
  }

  // Model text read in a text format (§1b.12): a TextReply — the answer, the reasoning and the
  // calls apart, with the account of every call region. With tools (a Tools, or {name: parameters
  // schema}), values are typed by them (§1b.4) and every call checked (§8.2).
  readText(format, text, { params = {}, tools = null } = {}) {
    return new TextReply(this.#readText(format, text, params, tools));
  }

  #compiledTools(format, tools) {
    if (tools && tools.compiled && tools.format === format) return tools.compiled;
    return compileTools(this.spec(format), tools, Object.entries(this.specs()));
  }
}

// The tools= of a text reading, as Python takes them: a Tools (its calls checked against the
// request it was compiled from), {name: parameters schema or null} (compiled as
// Tools.from_schemas), or an object with parameters(name) alone (values typed, nothing checked).
function textTools(tools) {
  if (tools instanceof Tools) return { tools, check: tools.compiled };
  if (typeof tools.parameters === 'function') return { tools };
  if (isObject(tools)) return { tools, check: toolsFromSchemas(tools) };
  throw new TypeError('tools must be a Tools or an object {tool name: parameters schema}');
}

let bundledRegistry = null;
// The registry of the bundled specs, built once (the data module is loaded on first use by index.js).
export function bundled(data) {
  if (!bundledRegistry) bundledRegistry = new Registry(data);
  return bundledRegistry;
}

// A reply's JSON from the implementation's own reply data (an error's partial reply).
Registry.replyJson = (raw) => new Reply(raw).toJSON();
