// Rendering back (specs/README.md §6): the spec's JSON templates filled with a reply's calls,
// its assistant turn and a whole reply body. roundTrip() checks §6.3's property on one reply.
import { compileExpression } from './expression.js';
import { isObject } from './json.js';
import { sha256Hex } from './sha256.js';
import { read, fates, ToolwireError } from './interpreter.js';

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

// The assistant turn of a reply: its items from its turn (§7), else built from text_item and calls.
export function assistantTurn(spec, reply, fromTurn = true) {
  const { render } = spec.data;
  const format = spec.format;
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
  const render = target.data.render;
  if (!render) throw renderError(target.format, `${target.format} has no render part`);
  if ((reply.refused || []).length) throw renderError(target.format, `the reply holds items its format refused (client actions ${target.format} cannot carry)`);
  const kept = withIds(target.format, reply.calls.filter((_, i) => fates(reply)[i] !== 'dropped'), ids);
  if (render.requires_id) {
    const bare = kept.find((c) => !c.id);
    if (bare) throw renderError(target.format, `call ${bare.name} has no id, and ${target.format} pairs results with calls by id`);
  }
  if (!lossy) {
    const written = JSON.stringify(render.call);
    for (const call of kept) {
      for (const key of Object.keys(call.provider_data || {})) {
        if (!written.includes(`\${call.provider_data.${key}}`)) throw renderError(target.format, `${target.format} cannot carry the call's ${key}`);
      }
    }
    if (reply.server_calls.length) throw renderError(target.format, `${target.format} cannot carry calls the provider ran itself`);
  }
  return assistantTurn(target, { ...reply, calls: kept, truncated: false }, false); // kept: none dropped
}

const MCP_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);
const isBlocks = (v) => Array.isArray(v) && v.length > 0 && v.every((b) => isObject(b) && MCP_TYPES.has(b.type));
// An MCP CallToolResult: only its own keys, its content blocks (or none).
const RESULT_KEYS = new Set(['content', 'isError', 'structuredContent', '_meta']);
const isCallToolResult = (v) => isObject(v) && 'content' in v && Object.keys(v).every((k) => RESULT_KEYS.has(k))
  && (isBlocks(v.content) || (Array.isArray(v.content) && !v.content.length));

// §6.2: the `result.*` variables of one result (a string, JSON value, MCP blocks, a
// CallToolResult `{content, isError}`, or an Error).
// An Error's type is its `name`; a rejected call's error result says it is one (`labelled`).
function resultVars(render, given, format, labelled = false) {
  let value = given; let isError = labelled; let errorType = null;
  let blocks = isBlocks(value) ? value : null;
  if (given instanceof Error) { value = given.message; isError = true; errorType = given.name || 'Error'; }
  else if (isCallToolResult(given)) { value = given.content; blocks = value; isError = given.isError === true; }
  const textOf = () => {
    if (errorType !== null) return value || errorType;
    if (!blocks) return typeof value === 'string' ? value : JSON.stringify(value);
    return blocks.map((b) => {
      if (b.type !== 'text') throw renderError(format, `a ${b.type} block cannot be written as text in ${format}`);
      return b.text;
    }).join('\n');
  };
  const renderBlock = (block) => {
    const template = (render.blocks || {})[block.type];
    if (template === undefined) throw renderError(format, `${format} cannot write an MCP ${block.type} block`);
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
  const render = spec.data.render;
  const format = spec.format;
  const fate = fates(reply);
  const slotOf = new Map();
  // Keys resolve through maps built once: scanning the calls per key would make n answers cost n².
  const byId = new Map(); const byObject = new Map();
  reply.calls.forEach((c, i) => {
    byObject.set(c, [i]);
    if (c.id) { if (!byId.has(c.id)) byId.set(c.id, []); byId.get(c.id).push(i); }
  });
  for (const key of results.keys()) {
    let matches;
    if (typeof key === 'number') matches = reply.calls[key] ? [key] : [];
    else if (typeof key === 'string') matches = byId.get(key) || [];
    else matches = byObject.get(key) || [];
    if (matches.length !== 1) throw renderError(format, matches.length ? `result key ${String(key)} matches ${matches.length} calls` : `result for no call of the reply: ${String(key)}`);
    if (fate[matches[0]] === 'dropped') throw renderError(format, `a result for the dropped call ${reply.calls[matches[0]].name}`);
    slotOf.set(matches[0], results.get(key));
  }
  const rendered = [];
  reply.calls.forEach((call, i) => {
    if (fate[i] === 'dropped') return;
    let given = slotOf.get(i);
    let labelled = false;
    if (given === undefined) {
      if (fate[i] !== 'rejected') throw renderError(format, `no result for the runnable call ${call.name}`);
      given = `Error: ${call.arguments_error || 'the call was rejected'}.`; // its error result
      labelled = true;
    }
    const { isError, vars } = resultVars(render, given, format, labelled);
    const template = isError ? render.error_result : render.result;
    rendered.push(fill(template, lookupIn({ call: callVars(call, format), result: vars }), format));
  });
  if (render.results) return rendered.length ? [fill(render.results, lookupIn({ results: rendered }), format)] : [];
  return rendered;
}
