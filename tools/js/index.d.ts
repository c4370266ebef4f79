// Type declarations of the toolwire package's public API (index.js). The JSON shapes (toJSON())
// are those of toolwire's Python package: specs/README.md §7.

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** The package's version, the same as the Python package's. */
export declare const version: string;

/** What a call's fate is in the tool loop (specs/README.md §1.3.1). */
export type Fate = 'runnable' | 'dropped' | 'rejected';

/** One error of a call's arguments against the offered tool's schema (§8.2). */
export interface ArgumentError { pointer: string; keyword: string; message?: string }

/** ToolCall.to_dict(): the keys beyond the first five appear only when set. */
export interface ToolCallJSON {
  name: string;
  arguments: JsonObject;
  id: string;
  synthetic: boolean;
  arguments_undecodable: boolean;
  arguments_error?: string;
  arguments_error_code?: string;
  unknown_tool?: true;
  arguments_invalid?: true;
  arguments_errors?: ArgumentError[];
  incomplete?: true;
  provider_data?: JsonObject;
  raw_arguments?: Json;
  item_index?: number;
}

/** A tool call the model emitted: immutable, its arguments always a JSON object. */
export declare class ToolCall {
  private constructor();
  readonly name: string;
  /** The decoded arguments; {} when they were absent or undecodable. */
  readonly arguments: Readonly<JsonObject>;
  /** The provider's id, "" when it sent none. */
  readonly id: string;
  readonly synthetic: boolean;
  readonly argumentsUndecodable: boolean;
  readonly argumentsError: string | null;
  /** The fault code of §1.4.1 (e.g. `unexpected-end`), null when the arguments decoded. */
  readonly argumentsErrorCode: string | null;
  /** The arguments exactly as sent, or null. */
  readonly rawArguments: Json;
  readonly itemIndex: number | null;
  /** What the provider needs back with this call (a Gemini thought signature, ...). */
  readonly providerData: Readonly<JsonObject>;
  /** A streamed call whose end never arrived (reply({ allowIncomplete: true })). */
  readonly incomplete: boolean;
  readonly unknownTool: boolean;
  readonly argumentsInvalid: boolean;
  readonly argumentsErrors: readonly ArgumentError[];
  toJSON(): ToolCallJSON;
}

export interface ServerToolCallJSON { type: string; id: string; name?: string; status?: string; input?: Json }

/** A call the provider ran itself (web search, code execution, ...): never the client's to run. */
export declare class ServerToolCall {
  private constructor();
  readonly type: string;
  readonly id: string;
  readonly name: string | null;
  readonly status: string | null;
  readonly input: Json;
  toJSON(): ServerToolCallJSON;
}

/** Where an item sat: its index, location and type; `reason` on skipped, unknown and refused records. */
export interface ItemRecordJSON { item_index: number; location: string; item_type: string | null; reason?: string; code?: string }
export interface CallRecordJSON { item_index: number; location: string; item_type: string | null; entry: number; arguments_selected: boolean }

/** Reply.to_dict() (specs/README.md §7). */
export interface ReplyJSON {
  format: string;
  calls: Array<ToolCallJSON & { fate: Fate; record: CallRecordJSON | null }>;
  server_calls: ServerToolCallJSON[];
  truncated: boolean;
  finish_reason: string | null;
  choice: number;
  choice_count: number | null;
  unknown_types: string[];
  unknown: ItemRecordJSON[];
  skipped: ItemRecordJSON[];
  refused: ItemRecordJSON[];
  items: Array<{ item_index: number; location: string; item_type: string | null; kind: string; entry: number | null }>;
  text: string | null;
  turn: TurnJSON | null;
}

/** What a reply's assistant turn is written from beside its calls and text (§7): its top-level
 * items in order (a call item as its call's index) and each `${response:…}` value. */
export interface TurnJSON {
  items: Array<Record<string, unknown> | number>;
  response: Record<string, unknown>;
}

/** Everything a reply holds: the calls, the server calls, truncation, the finish reason, loose ends. */
export declare class Reply {
  private constructor();
  readonly format: string;
  readonly calls: readonly ToolCall[];
  readonly serverCalls: readonly ServerToolCall[];
  /** The reply ended on its token limit. */
  readonly truncated: boolean;
  /** The provider's own word for why it stopped. */
  readonly finishReason: string | null;
  readonly choice: number;
  readonly choiceCount: number | null;
  readonly unknownTypes: readonly string[];
  readonly unknown: readonly ItemRecordJSON[];
  readonly skipped: readonly ItemRecordJSON[];
  readonly refused: readonly ItemRecordJSON[];
  readonly items: ReplyJSON['items'];
  /** The assistant's text (§1.10), or null. */
  readonly text: string | null;
  /** What the assistant turn is written from (§7); null without a render part. */
  readonly turn: TurnJSON | null;
  /** Each call's fate, in order. */
  fates(): Fate[];
  /** The calls to run. */
  readonly runnableCalls: ToolCall[];
  /** The calls to drop (cut off by the token limit, or never finished). */
  readonly droppedCalls: ToolCall[];
  /** The calls to answer with an error result (undecodable, unknown tool, invalid arguments). */
  readonly rejectedCalls: ToolCall[];
  /** Whether a call is runnable or rejected: false when every call was dropped (cut off), so a loop `while (reply.hasCalls)` ends on a cut reply. */
  readonly hasCalls: boolean;
  /** The assistant turn to append to the history, in this reply's own format (§6.2): its items as
   * the provider needs them back, each call written from its ToolCall, dropped calls removed. An
   * object, or a list of items where the format's history is one (Responses); null where the
   * template yields nothing. Throws ToolwireError render_error where the format cannot write it. */
  assistantMessage(options?: RenderOptions): Json;
  /** The provider-native message(s) carrying a result for every call of the assistant turn (§6.3),
   * in call order; a rejected call given no result is answered with its errorResult. Throws
   * ToolwireError render_error for a runnable call without a result, a result for a dropped call
   * or for no call of the reply, or a key matching two calls. */
  answer(results: ToolResults, options?: RenderOptions): Json[];
  /** The text to send back as the tool result of a rejected call; a call with nothing wrong with it is a TypeError. */
  errorResult(call: ToolCall | ToolCallJSON): string;
  static errorResult(call: ToolCall | ToolCallJSON): string;
  /** The same JSON as Python's Reply.to_dict(). */
  toJSON(): ReplyJSON;
}

/** Where a reply's format's render part comes from: the registry given, else the bundled one
 * (a reply read through a Registry of your own renders through it). */
export interface RenderOptions { registry?: Registry | null }

/** One tool result: a string, JSON data, MCP content blocks, an MCP CallToolResult, or an Error (an error result). */
export type ToolResult = Json | Error | { content: JsonObject[]; isError?: boolean; structuredContent?: JsonObject; _meta?: JsonObject };

/** Results keyed by a call of reply.calls (or an equal one), its id, or its index in reply.calls;
 * or an array holding one result per call of reply.runnableCalls, in order. */
export type ToolResults = Map<ToolCall | string | number, ToolResult> | ReadonlyArray<ToolResult>;

export interface ConvertOptions extends RenderOptions {
  /** Leave out what the target cannot carry (provider data, server-side calls) instead of refusing. */
  lossy?: boolean;
  /** Ids for calls without one where the target answers by id: 'mint' (§6.3), or your own. */
  ids?: 'mint' | ((call: ToolCall, index: number) => string) | null;
}

/** A reply's text and calls as format `to`'s assistant turn (§6.3), or ToolwireError render_error
 * naming what `to` cannot express. */
export declare function convert(reply: Reply, to: string, options?: ConvertOptions): Json;

/** An error toolwire raises on purpose; `code` is stable (specs/README.md §3, §8, §9.8). */
export declare class ToolwireError extends Error {
  readonly code: string;
  /** unmapped_call, unknown_item_type: the partial reply data of the whole response; from readText or extractFromText, the partial TextReply. */
  readonly reply?: unknown;
  /** unmapped_call: where the item sits (from model text, `text[START:END]`). */
  readonly location?: string;
  readonly item_index?: number | null;
  readonly item_type?: string | null;
  /** malformed_response: the format whose replies this body looks like, or null. */
  readonly looks_like?: string | null;
  /** provider_error: the provider's own words about the failure. */
  readonly error_message?: string | null;
  readonly error_type?: string | null;
  readonly error_code?: string | null;
  /** provider_error: fields the spec keeps (Groq's failed_generation: the model's raw attempt). */
  readonly provider_data?: Record<string, Json> | null;
  readonly [fact: string]: unknown;
}

export interface SpecProblem { file: string; line: number; col: number; pointer: string; rule: string; message: string }

/** A spec failed to load: every problem, located. */
export declare class SpecError extends ToolwireError {
  readonly problems: readonly SpecProblem[];
}

export interface ReadOptions {
  /** true refuses unknown item types, false reports them; null keeps the spec's rule. */
  strict?: boolean | null;
  /** The alternative to read of a reply holding several (n > 1). */
  choice?: number | null;
  /** The request's tools (a Tools, or the request body or its tool list as sent): each call is checked. */
  tools?: Tools | Json | null;
  /** A text format whose calls the model wrote into the assistant text (a server without a tool
   * parser): lifted out after the wire calls; the reply's text is the answer without them, and
   * each region that gave no call is a skipped record (`content[START:END]`). */
  textFormat?: string | null;
  /** The text format's parameters, as for readText. */
  textParams?: Record<string, string>;
  /** Ids for the lifted calls that have none: 'mint' (the id convert mints, specs/README.md §6.3)
   * or a function of the call and its index in the reply's calls. Default: minted where the
   * format pairs results by id (`render.requires_id`), none elsewhere. Needs textFormat. */
  ids?: 'mint' | ((call: ToolCall, index: number) => string) | null;
}

/** A response: a parsed JSON object, or its JSON text. */
export type Response = JsonObject | string;

export interface TextOptions {
  /** The text format's parameters (e.g. { tag: 'tool_call' }). */
  params?: Record<string, string>;
  /**
   * The tools offered: a Tools (compiled from the request as sent), or each tool's parameters
   * schema by name (null: unchecked), compiled as Python's Tools.from_schemas. Values of
   * XML-family formats are typed by them (§1b.4) and every call is checked (§1b.12, §8.2). An
   * object with parameters(name) alone only types the values.
   */
  tools?: Tools | Record<string, JsonObject | boolean | null> | { parameters(name: string): Json | undefined } | null;
}

/** A stretch of model text (§1b.12): offsets in code points, the text between them, a stable code and a reason for people. */
export interface TextRegion {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** `cut-off` or `not-a-call` (skipped), `unmapped_call` (refused). */
  readonly code: string;
  readonly reason: string;
  /** A refused message's recipient (the built-in tool it is addressed to). */
  readonly recipient?: string;
}

/** TextReply.to_dict() (specs/README.md §7, §1b.12). */
export interface TextReplyJSON {
  text: string;
  reasoning: string;
  calls: Array<ToolCallJSON & { fate: Fate }>;
  skipped: TextRegion[];
  truncated: boolean;
  refused: TextRegion[];
}

/** Model text read with a text spec: the answer, the reasoning and the calls apart, and the account of every call region. */
export declare class TextReply {
  private constructor();
  /** The answer: the text without its lifted calls and reasoning regions, trimmed. */
  readonly text: string;
  /** The reasoning regions' inner text, joined by a blank line; "" when there are none. */
  readonly reasoning: string;
  /** The calls in the order written (incomplete where the end of the text cut one). */
  readonly calls: readonly ToolCall[];
  /** The call regions that yielded no call (their text stays in `text`). */
  readonly skipped: readonly TextRegion[];
  /** The text ends inside a call region or a reasoning region. */
  readonly truncated: boolean;
  /** The messages the spec refuses (a Harmony built-in tool): only in an unmapped_call error's partial reply. */
  readonly refused: readonly TextRegion[];
  /** Each call's fate, in order: an incomplete call is dropped, one with wrong arguments rejected. */
  fates(): Fate[];
  /** The calls to run. */
  readonly runnableCalls: ToolCall[];
  /** The calls the end of the text cut: neither run nor answered. */
  readonly droppedCalls: ToolCall[];
  /** The calls to answer with an error result (undecodable, unknown tool, invalid arguments). */
  readonly rejectedCalls: ToolCall[];
  /** Whether a call is runnable or rejected: false when every call was dropped (cut off), so a loop `while (reply.hasCalls)` ends on a cut reply. */
  readonly hasCalls: boolean;
  /** The text to send back as the tool result of a rejected call (Reply.errorResult). */
  errorResult(call: ToolCall | ToolCallJSON): string;
  static errorResult(call: ToolCall | ToolCallJSON): string;
  /** The same JSON as Python's TextReply.to_dict(). */
  toJSON(): TextReplyJSON;
}

/** Wire and text specs by format name, with the package's operations. */
export declare class Registry {
  /** Specs as data: { wire: { format: resolved spec }, text: { format: text spec }, schema?: meta-schemas } (`toolwire specs export`'s specs.json). */
  constructor(specs: { wire: Record<string, JsonObject>; text?: Record<string, JsonObject>; schema?: Record<string, JsonObject> });
  static fromObject(specs: { wire: Record<string, JsonObject>; text?: Record<string, JsonObject>; schema?: Record<string, JsonObject> }): Registry;
  /** The bundled specs. */
  static bundled(): Registry;
  readonly formats: string[];
  readonly textFormats: string[];
  /** A new registry with your specs added (YAML text or data by format name); they may extend bundled ones. Throws SpecError. */
  withSpecs(specs: { wire?: Record<string, string | JsonObject>; text?: Record<string, string | JsonObject> }): Registry;
  read(format: string | null, response: Response, options?: ReadOptions): Reply;
  extract(format: string, response: Response, options?: ReadOptions): readonly ToolCall[];
  locate(format: string, response: Response, options?: { strict?: boolean | null }): JsonObject[];
  sniffFormat(response: Response): string | null;
  fromStructuredOutput(format: string | null, response: Response, toolName: string, options?: { choice?: number | null }): ToolCall;
  extractFromText(format: string, text: string, options?: TextOptions): { cleanText: string; calls: ToolCall[] };
  readText(format: string, text: string, options?: TextOptions): TextReply;
}

/** Everything at once; format null sniffs it. Throws ToolwireError (unknown_format, unmapped_call, malformed_response, ...). */
export declare function read(format: string | null, response: Response, options?: ReadOptions): Reply;
/** The calls the client must run (read(...).calls). */
export declare function extract(format: string, response: Response, options?: ReadOptions): readonly ToolCall[];
/** The raw call items, unparsed, in response order. */
export declare function locate(format: string, response: Response, options?: { strict?: boolean | null }): JsonObject[];
/** The format from the response's top-level shape, or null. */
export declare function sniffFormat(response: Response): string | null;
/** A reply whose text answers a response-format request, as a synthetic call of toolName (§1.8). */
export declare function fromStructuredOutput(format: string | null, response: Response, toolName: string, options?: { choice?: number | null }): ToolCall;
/** Tool calls a model wrote inside its text: the clean text (reasoning left in as written) and the calls. Throws unmapped_call as readText does. */
export declare function extractFromText(format: string, text: string, options?: TextOptions): { cleanText: string; calls: ToolCall[] };
/** Model text in a text format: the answer, the reasoning and the calls apart. A message the spec refuses throws ToolwireError unmapped_call, its `reply` the partial TextReply. */
export declare function readText(format: string, text: string, options?: TextOptions): TextReply;

/** The request's tools compiled for a format (§8). */
export declare class Tools {
  /** tools: the request body, its tool list, or JSON text of either, exactly as sent. Throws ToolwireError invalid_tools. */
  constructor(format: string, tools: Json, options?: { registry?: Registry | null });
  readonly format: string;
  /** The offered names, in order. */
  readonly names: readonly string[];
  /** The tool's parameters schema after translation and strict mode; null when unchecked; undefined when not offered. */
  parameters(name: string): JsonObject | null | undefined;
  has(name: string): boolean;
  /** The call with its verdict (unknownTool, argumentsInvalid, argumentsErrors). */
  check(call: ToolCall | ToolCallJSON): ToolCall;
  checkReply(reply: Reply): Reply;
}

/** One thing that became ready while a stream was fed (§9.6). */
export declare class StreamUpdate {
  private constructor();
  readonly kind: 'call' | 'server_call' | 'refused' | 'unknown' | 'finished';
  readonly call: ToolCall | null;
  readonly serverCall: ServerToolCall | null;
  readonly itemType: string | null;
  readonly reason: string | null;
  readonly finishReason: string | null;
  readonly truncated: boolean;
  toJSON(): { kind: StreamUpdate['kind']; call?: ToolCallJSON & { fate: Fate }; server_call?: ServerToolCallJSON; item_type?: string; reason?: string; finish_reason?: string | null; truncated?: boolean };
}

/** A provider's stream in, the Reply read() gives out; calls handed out once complete. */
export declare class Accumulator {
  /** format null sniffs it from the first event. */
  constructor(format?: string | null, options?: { registry?: Registry | null });
  /** The format, once known. */
  readonly format: string | null;
  /** The stream reached its terminal signal. */
  readonly complete: boolean;
  /** One decoded event (an object, or its JSON text). */
  feed(event: JsonObject | string): StreamUpdate[];
  /** Raw SSE or NDJSON bytes, cut anywhere. */
  feedBytes(chunk: Uint8Array | string): StreamUpdate[];
  /** The end of the raw input. */
  close(): StreamUpdate[];
  /** The Reply; an unfinished stream throws incomplete_stream unless allowIncomplete. */
  reply(options?: { allowIncomplete?: boolean }): Reply;
}

/** Events (objects or JSON text) or byte chunks (Uint8Array), or the stream's bytes or text whole, then the Reply. */
export declare function readStream(format: string | null, source: Iterable<JsonObject | string | Uint8Array> | Uint8Array | string, options?: { registry?: Registry | null }): Reply;
/** The same from an async iterable or a ReadableStream (a fetch() body). */
export declare function readStreamAsync(format: string | null, source: AsyncIterable<JsonObject | string | Uint8Array> | Iterable<JsonObject | string | Uint8Array> | ReadableStream<Uint8Array> | Uint8Array | string, options?: { registry?: Registry | null }): Promise<Reply>;

/** The decoding table of §1.4. */
export declare function decodeArguments(raw: Json | undefined): { arguments: JsonObject; undecodable: boolean; code: string | null };
