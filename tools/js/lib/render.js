// Rendering back (specs/README.md §6): the spec's JSON templates filled with a reply's calls,
// its assistant turn and a whole reply body. roundTrip() checks §6.3's property on one reply.
import { compileExpression } from './expression.js';
import { isObject, own } from './json.js';
import { sha256Hex } from './sha256.js';
import { read, fates, ToolwireError } from './interpreter.js';
import { errorResult } from './error_result.js';

const ABSENT = Symbol('absent');
const renderError = (format, reason) => new ToolwireError('render_error', reason, { format, reason });
const emptyish = (v) => v === '' || (Array.isArray(v) && !v.length) || (isObject(v) && !Object.keys(v).length);

// §6.1: fill one template; `lookup(path)` gives a variable's value or ABSENT.
export function fill(template, lookup, format) {
  if (typeof template === 'string') return fillString(template, lookup, format);
  if (Array.isArray(template)) return template.map((t) => fill(t, lookup, format)).filter((v) => v !== ABSENT);
  if (isObject(template)) {
    const out = {};
    for (const [key, t] of Object.entries(template)) {
      const v = fill(t, lookup, format);
      if (v !== ABSENT) out[key] = v;
    }
    return out;
  }
  return template;
}

function fillString(text, lookup, format) {
  if (text.startsWith('$${')) return text.slice(1);
  const whole = /^\$\{([^}]+?)(\?)?\}$/.exec(text);
  if (whole) {
    const v = lookup(whole[1]);
    return v === ABSENT || v === null || v === undefined || (whole[2] && emptyish(v)) ? ABSENT : v;
  }
  let absent = false;
  const spliced = text.replace(/\$\{([^}]+?)\}/g, (_, path) => {
    const v = lookup(path);
    if (v === ABSENT || v === null || v === undefined) { absent = true; return ''; }
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return JSON.stringify(v);
    throw renderError(format, `\${${path}} is a ${typeof v}: only text and numbers splice into a string`);
  });
  return absent ? ABSENT : spliced;
}

// Variables: a root object, member by member (§6.1 rule 5), `response:` values the reply's turn carries.
function lookupIn(roots, turn) {
  return (path) => {
    if (path.startsWith('response:')) {
      const key = path.slice(9).replace(/\?$/, '').trim();
      return turn && Object.hasOwn(turn.response, key) ? turn.response[key] : ABSENT;
    }
    let v = roots;
    for (const name of path.split('.')) {
      if (!isObject(v) || !Object.hasOwn(v, name)) return ABSENT;
      v = typeof v[name] === 'function' ? v[name]() : v[name];
    }
    return v;
  };
}

// §6.2: the `call.*` variables; `arguments` is refused where the arguments are undecodable.
function callVars(call, format) {
  const raw = call.raw_arguments;
  return {
    name: call.name, id: call.id || '', provider_data: call.provider_data || {},
    arguments: () => {
      if (call.arguments_undecodable) throw renderError(format, `call ${call.name}: undecodable arguments cannot be written as an object`);
      return isObject(raw) ? raw : call.arguments;
    },
    arguments_text: typeof raw === 'string' ? raw : JSON.stringify(raw ?? call.arguments),
    arguments_raw: raw === undefined || raw === null ? call.arguments : raw,
  };
}

const renderCall = (render, call, format) => fill(render.call, lookupIn({ call: callVars(call, format) }), format);

const renderPart = (spec) => {
  if (!spec.data.render) throw renderError(spec.format, `the ${spec.format} spec has no render part`);
  return spec.data.render;
};

// Items the reply's format refused (client actions, §1.3 step 7) are never dropped from a turn.
function refuseRefused(reply, format, what) {
  const refused = reply.refused || [];
  if (!refused.length) return;
  const kinds = [...new Set(refused.map((r) => r.item_type || 'untyped'))].sort().join(', ');
  throw renderError(format, `${what} (${kinds}): client actions toolwire cannot write back`);
}

// Every variable path a template names (what a target can carry).
function placeholders(template) {
  const found = new Set();
  const stack = [template];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === 'string' && !value.startsWith('$${')) {
      for (const m of value.matchAll(/\$\{([^}]+?)\??\}/g)) found.add(m[1]);
    } else if (Array.isArray(value)) stack.push(...value);
    else if (isObject(value)) stack.push(...Object.values(value));
  }
  return found;
}

// The assistant turn of a reply: its items from its turn (§7), else built from text_item and calls.
export function assistantTurn(spec, reply, fromTurn = true) {
  const render = renderPart(spec);
  const format = spec.format;
  refuseRefused(reply, format, `the reply holds ${(reply.refused || []).length} item(s) the ${format} spec refused`);
  const fate = fates(reply);
  const kept = reply.calls.filter((_, i) => fate[i] !== 'dropped');
  const text = typeof reply.text === 'string' ? reply.text : undefined;
  const turn = fromTurn ? reply.turn : null;
  let items;
  if (turn) {
    items = [];
    for (const entry of turn.items) {
      if (typeof entry !== 'number') items.push(entry);
      else if (fate[entry] !== 'dropped') items.push(renderCall(render, reply.calls[entry], format));
    }
  } else {
    const first = !text || !render.text_item ? [] : [fill(render.text_item, lookupIn({ text }), format)];
    items = [...first.filter((v) => v !== ABSENT), ...kept.map((c) => renderCall(render, c, format))];
  }
  const vars = { items, calls: kept.map((c) => renderCall(render, c, format)), text };
  const filled = fill(render.assistant, lookupIn(vars, turn), format);
  return filled === ABSENT ? null : filled;
}

// The assistant turn to append to the history (§6.2): refused when it would hold nothing — no
// text, no kept call, no item besides call items — as no provider takes an empty turn back, and
// asking again after one asks the same question (a reply cut inside its only call, §1.3.1).
export function assistantMessage(spec, reply) {
  const fate = fates(reply);
  const items = reply.turn ? reply.turn.items : [];
  if (!reply.text && !fate.some((f) => f !== 'dropped') && items.every((e) => typeof e === 'number')) {
    const dropped = fate.filter((f) => f === 'dropped').length;
    const cut = dropped ? `its ${dropped} call(s) were cut off at the token limit and dropped` : 'it holds no text and no call';
    throw renderError(spec.format, `the reply has no assistant turn to write back: ${cut} (truncated is ${!!reply.truncated}); end the loop on it (hasCalls is false), or ask again with a larger output limit`);
  }
  return assistantTurn(spec, reply);
}

// A whole reply body of the format holding the turn (the `reply` template).
export function replyBody(spec, turn, finishReason) {
  const body = fill(spec.data.render.reply, lookupIn({ assistant: turn, finish_reason: finishReason ?? undefined }), spec.format);
  return body === ABSENT ? null : body;
}

const value = (c) => ({ name: c.name, arguments: c.arguments, id: c.id, provider_data: c.provider_data || {} });

// §6.3 round trip: read, render the turn (from its items, then from its calls alone), fill
// `reply`, read again: the kept calls come back equal; raw text stays byte-identical where
// `call` writes it as text. Returns how many renderings were checked.
export function roundTrip(spec, response, reply, same) {
  const render = spec.data.render;
  if (!render || !render.reply) return 0;
  const kept = reply.calls.filter((_, i) => fates(reply)[i] !== 'dropped');
  const asText = JSON.stringify(render.call).includes('${call.arguments_text}') || JSON.stringify(render.call).includes('${call.arguments_raw}');
  let checked = 0;
  for (const fromItems of [true, false]) {
    let turn;
    try { turn = assistantTurn(spec, reply, fromItems); } catch (error) {
      if (error.code === 'render_error' && kept.some((c) => c.arguments_undecodable)) continue; // §6.2: refused, as it must be
      throw error;
    }
    const again = read(spec, replyBody(spec, turn, reply.finish_reason), false);
    const got = again.calls.map(value); const want = kept.map(value);
    if (!same(got, want)) throw new Error(`render round trip (${fromItems ? 'items' : 'calls'}): read back ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    if (asText) {
      kept.forEach((call, i) => {
        if (typeof call.raw_arguments === 'string' && again.calls[i].raw_arguments !== call.raw_arguments) {
          throw new Error(`render round trip: call ${i}'s arguments text changed`);
        }
      });
    }
    checked++;
  }
  return checked;
}

// convert (§6.3): a reply's text and calls as `target`'s assistant turn, refusing what the
// target cannot express — a call without an id where it `requires_id`, and unless `lossy`
// provider data its `call` does not write and server-side calls.
// §6.3: the id `ids: 'mint'` gives the call at `index`: 9 hex digits of the SHA-256 of the
// index, the name and the arguments text, one per line.
export function mintId(call, index) {
  const text = callVars(call, '').arguments_text;
  return sha256Hex(`${index}\n${call.name}\n${text}`).slice(0, 9);
}

function withIds(format, kept, ids) {
  if (!ids || kept.every((c) => c.id)) return kept;
  const taken = new Set(kept.filter((c) => c.id).map((c) => c.id));
  return kept.map((call, index) => {
    if (call.id) return call;
    let given;
    if (ids === 'mint') {
      given = mintId(call, index);
      for (let salt = 1; taken.has(given); salt++) given = mintId(call, index + salt * kept.length);
    } else {
      given = ids(call, index);
      if (typeof given !== 'string' || !given || taken.has(given)) throw renderError(format, `ids() gave no fresh id for call ${index}`);
    }
    taken.add(given);
    return { ...call, id: given };
  });
}

export function convert(reply, target, { lossy = false, ids = null } = {}) {
  const render = renderPart(target);
  const to = target.format;
  if (ids !== null && ids !== undefined && ids !== 'mint' && typeof ids !== 'function') {
    throw new TypeError(`ids must be null, 'mint' or a function (call, index) => string, not ${JSON.stringify(ids)}`);
  }
  refuseRefused(reply, to, `the reply holds ${(reply.refused || []).length} item(s) ${reply.format} refused, which ${to} cannot carry; answer them in ${reply.format}`);
  const kept = withIds(to, reply.calls.filter((_, i) => fates(reply)[i] !== 'dropped'), ids);
  const carried = new Set([...placeholders(render.call)].filter((n) => n.startsWith('call.provider_data.')).map((n) => n.slice(19)));
  kept.forEach((call, index) => {
    const where = `call ${index} (${call.name})`;
    if (!call.id && render.requires_id) throw renderError(to, `${where} has no id, and ${to} answers results by call id (convert(..., { ids: 'mint' }) gives each call one)`);
    if (lossy || reply.format === to) return;
    const lost = Object.keys(call.provider_data || {}).filter((key) => !carried.has(key)).sort();
    if (lost.length) throw renderError(to, `${where} carries provider data ${JSON.stringify(lost)} for ${reply.format}, which ${to} calls cannot hold (convert(..., { lossy: true }) drops it)`);
  });
  if ((reply.server_calls || []).length && !lossy) {
    throw renderError(to, `the reply holds ${reply.server_calls.length} call(s) ${reply.format} ran itself, which ${to} cannot express (convert(..., { lossy: true }) leaves them out)`);
  }
  return assistantTurn(target, { ...reply, calls: kept, truncated: false, refused: [] }, false); // kept: none dropped
}

// MCP content block types (the 2025-06-18 schema) and the fields each must carry.
const MCP_BLOCK_TYPES = {
  text: ['text'], image: ['data', 'mimeType'], audio: ['data', 'mimeType'], resource: ['resource'], resource_link: ['uri'],
};
const isBlocks = (v) => Array.isArray(v) && v.length > 0 && v.every((b) => isObject(b)
  && Object.hasOwn(MCP_BLOCK_TYPES, own(b, 'type')) && MCP_BLOCK_TYPES[own(b, 'type')].every((field) => Object.hasOwn(b, field)));
// An MCP CallToolResult: only its own keys, its content blocks (or none).
const RESULT_KEYS = new Set(['content', 'isError', 'structuredContent', '_meta']);
const isCallToolResult = (v) => isObject(v) && Object.hasOwn(v, 'content') && Object.keys(v).every((k) => RESULT_KEYS.has(k))
  && (isBlocks(v.content) || (Array.isArray(v.content) && !v.content.length));

// Where a value is no JSON data (a function, undefined, a bigint, NaN, a class instance), or null.
function notJson(value) {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') { if (!Number.isFinite(v)) return `${v} is no JSON number`; continue; }
    if (Array.isArray(v)) { stack.push(...v); continue; }
    if (isObject(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v))) { stack.push(...Object.values(v)); continue; }
    return `${v === undefined ? 'undefined' : typeof v === 'object' ? `a ${v.constructor?.name || 'object'}` : `a ${typeof v}`} is no JSON value`;
  }
  return null;
}

// §6.2: the `result.*` variables of one result (a string, JSON value, MCP blocks, a
// CallToolResult `{content, isError}`, or an Error).
// An Error's type is its `name`; a rejected call's error result says it is one (`labelled`).
function resultVars(render, given, format, labelled = false) {
  let value = given; let isError = labelled; let errorType = null;
  let blocks = null;
  if (given instanceof Error) { value = given.message; isError = true; errorType = given.name || 'Error'; }
  else if (typeof given !== 'string') {
    const problem = notJson(given);
    if (problem) throw renderError(format, `a tool result must be JSON data: ${problem}`);
    if (isCallToolResult(given)) { value = given.content; blocks = value; isError = own(given, 'isError') === true; }
    else if (isBlocks(given)) blocks = given;
  }
  const textOf = () => {
    if (errorType !== null) return value || errorType;
    if (!blocks) return typeof value === 'string' ? value : JSON.stringify(value);
    return blocks.map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'resource' && isObject(b.resource) && typeof b.resource.text === 'string') return b.resource.text;
      throw renderError(format, `a tool result holding a ${b.type} block cannot be written as text in ${format}: pass text, or a format whose results carry ${b.type} content`);
    }).join('\n');
  };
  const renderBlock = (block) => {
    const template = (render.blocks || {})[block.type];
    if (template === undefined) throw renderError(format, `${format} tool results cannot carry MCP ${block.type} content (the spec's render.blocks lists no template for it)`);
    return fill(template, lookupIn({ block }), format);
  };
  // §6.2: result.error names the exception's type; result.error_text says it is an error.
  const error = () => (errorType === null || !isError ? textOf() : value ? `${errorType}: ${value}` : errorType);
  return {
    isError,
    vars: {
      is_error: isError,
      text: textOf,
      error,
      error_text: () => (labelled || !isError ? error() : `Error: ${error()}`),
      value: () => (blocks ? textOf() : value),
      object: () => (isObject(value) && !blocks ? value : { result: blocks ? textOf() : value }),
      content: () => (blocks && blocks.length ? blocks.map(renderBlock) : textOf()),
      blocks: () => (blocks ? blocks : [{ type: 'text', text: textOf() }]).map(renderBlock),
    },
  };
}

// answer (§6.3): one result per kept call, in the reply's order; `results` is a Map keyed
// by call id (string), by the call itself, or by its index in reply.calls (number).
export function answer(spec, reply, results) {
  const render = renderPart(spec);
  const format = spec.format;
  const fate = fates(reply);
  const slotOf = new Map();
  // Keys resolve through maps built once: scanning the calls per key would make n answers cost n².
  const byId = new Map(); const byObject = new Map();
  reply.calls.forEach((c, i) => {
    byObject.set(c, [i]);
    if (c.id) { if (!byId.has(c.id)) byId.set(c.id, []); byId.get(c.id).push(i); }
  });
  for (const [key, given] of results) {
    let matches;
    if (typeof key === 'number') {
      if (!Number.isInteger(key) || key < 0 || key >= reply.calls.length) throw renderError(format, `no call ${key}: the reply has ${reply.calls.length}`);
      matches = [key];
    } else if (typeof key === 'string') matches = byId.get(key) || [];
    else if (isObject(key)) matches = byObject.get(key) || [];
    else throw new TypeError(`a results key is a call id (string), a call, or a call's index in reply.calls, not ${key === null ? 'null' : typeof key}`);
    if (!matches.length) throw renderError(format, `no call of this reply is ${typeof key === 'object' ? `the call ${key.name}` : JSON.stringify(key)}`);
    if (matches.length > 1) throw renderError(format, `${matches.length} calls of this reply match ${JSON.stringify(key)}: key their results by their index in reply.calls`);
    const [index] = matches;
    const call = reply.calls[index];
    if (fate[index] === 'dropped') throw renderError(format, `call ${index} (${call.name}) was dropped (the reply was cut off in it): it is not in the assistant turn, so it takes no result`);
    if (slotOf.has(index)) throw renderError(format, `two results for call ${index} (${JSON.stringify(typeof key === 'object' ? call.name : key)})`);
    slotOf.set(index, given);
  }
  const rendered = []; const missing = [];
  reply.calls.forEach((call, i) => {
    if (fate[i] === 'dropped') return;
    let given = slotOf.get(i);
    let labelled = false;
    if (!slotOf.has(i)) {
      if (fate[i] !== 'rejected') { missing.push(`${i} (${call.name} '${call.id || ''}')`); return; }
      given = errorResult(call); // its error result, which says it is one
      labelled = true;
    }
    const { isError, vars } = resultVars(render, given, format, labelled);
    const template = isError ? render.error_result : render.result;
    rendered.push(fill(template, lookupIn({ call: callVars(call, format), result: vars }), format));
  });
  if (missing.length) throw renderError(format, `no result for call ${missing.join(', ')}: every call in the assistant turn needs one`);
  if (render.results) return rendered.length ? [fill(render.results, lookupIn({ results: rendered }), format)] : [];
  return rendered;
}
