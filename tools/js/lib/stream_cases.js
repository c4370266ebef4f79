// Running one stream case (specs/README.md §4, stream cases): feed the events or the SSE/NDJSON
// text, compare what was handed out and the reply, then the derived properties: every cut of
// the events hands out nothing the full stream does not, and every byte split of the text
// gives the same outcome.
import { Accumulator } from './stream.js';
import { read, ToolwireError } from './interpreter.js';
import { decodeArguments } from './json.js';
import { StreamUpdate } from '../api/values.js';

// An update's JSON as the suite compares it (StreamUpdate.to_dict(), §9.6): a refused update's
// reason, each implementation's own wording where the type is unknown, left out.
const updateJson = (u) => { const { reason, ...rest } = new StreamUpdate(u).toJSON(); return rest; };

const TEST_KEYS = ['description', 'events', 'sse', 'equivalent_response', 'allow_incomplete', 'expect'];
const EXPECT_KEYS = ['ready', 'ready_updates', 'calls', 'server_calls', 'truncated', 'finish_reason', 'unknown_types', 'text', 'stream_complete', 'format', 'error'];
const STREAM_CALL_KEYS = ['name', 'arguments', 'id', 'synthetic', 'arguments_undecodable', 'arguments_error_code', 'incomplete'];

// Feed everything; the outcome is { acc, ready, error, reply }.
function outcome(specs, format, test, split = null) {
  const acc = new Accumulator(specs, format);
  const ready = [];
  let error = null; let reply = null;
  try {
    if (test.events) for (const event of test.events) ready.push(...acc.feed(event));
    else {
      const bytes = Buffer.from(test.sse, 'utf8');
      const chunks = split === null ? [bytes] : [bytes.subarray(0, split), bytes.subarray(split)];
      for (const chunk of chunks) ready.push(...acc.feedBytes(chunk));
      ready.push(...acc.closeInput());
    }
  } catch (e) { if (!(e instanceof ToolwireError)) throw e; error = e; }
  if (!error) {
    try { reply = acc.reply(); } catch (e) { if (!(e instanceof ToolwireError)) throw e; error = e; }
  }
  return { acc, ready, error, reply };
}

const streamCall = (call) => Object.fromEntries(STREAM_CALL_KEYS.filter((k) => k in call).map((k) => [k, call[k]]));
// A call's value (ToolCall equality): provenance (raw_arguments, item_index) left out.
const value = (call) => ({ ...streamCall(call), provider_data: call.provider_data || {} });
const serverValue = (s) => ({ ...s, input: typeof s.input === 'string' ? decodeArguments(s.input).arguments : s.input ?? null });

export function runStream(specs, format, test, { same, expectSame, onlyKeys }) {
  onlyKeys(test, TEST_KEYS, 'test');
  const { expect } = test;
  onlyKeys(expect, EXPECT_KEYS, 'expect');
  if (expect.error) onlyKeys(expect.error, ['code', 'error_code', 'looks_like', 'finished_reply', 'event_index'], 'expect.error');
  if (!!test.events === !!test.sse) throw new Error('a stream test has exactly one of events and sse');
  const full = outcome(specs, format, test);
  const what = test.description || '';
  expectSame(full.ready.map((u) => u.text), expect.ready, `${what}: ready`);
  if ('ready_updates' in expect) expectSame(full.ready.map(updateJson), expect.ready_updates, `${what}: ready_updates`);
  if (expect.error) {
    if (!full.error) throw new Error(`${what}: expected ${expect.error.code}, the stream succeeded`);
    expectSame(full.error.code, expect.error.code, `${what}: error code`);
    if ('error_code' in expect.error) expectSame(full.error.error_code, expect.error.error_code, `${what}: provider error code`);
    // §9.14: what a refused event is
    if ('looks_like' in expect.error) expectSame(full.error.looks_like ?? null, expect.error.looks_like, `${what}: looks_like`);
    if ('finished_reply' in expect.error) expectSame(full.error.finished_reply === true, expect.error.finished_reply, `${what}: finished_reply`);
    if ('event_index' in expect.error) expectSame(full.error.event_index ?? null, expect.error.event_index, `${what}: event_index`);
    let again = null; // reply() raises the same failure again (§9.7)
    try { full.acc.reply(); } catch (e) { again = e; }
    expectSame(again && again.code, expect.error.code, `${what}: reply() raises`);
  } else if (full.error) throw full.error;
  let reply = full.reply;
  if (expect.error && test.allow_incomplete && ['incomplete_stream', 'stream_error'].includes(full.error.code)) reply = full.acc.reply(true);
  if ('calls' in expect) {
    if (!reply) throw new Error(`${what}: no reply to compare calls with`);
    expectSame(reply.calls.map(streamCall), expect.calls, `${what}: calls`);
  }
  for (const key of ['server_calls', 'truncated', 'finish_reason', 'unknown_types', 'text']) {
    if (!(key in expect)) continue;
    if (!reply) throw new Error(`${what}: no reply to compare ${key} with`);
    // §4: a streamed server call is compared on type, id, name and status (its input, JSON text
    // pieces where the body has an object, only through equivalent_response)
    const got = key === 'server_calls' ? reply.server_calls.map(({ input, ...rest }) => rest) : reply[key];
    expectSame(got, expect[key], `${what}: ${key}`);
  }
  if ('stream_complete' in expect) expectSame(full.acc.complete, expect.stream_complete, `${what}: stream_complete`);
  if ('format' in expect) expectSame(full.acc.spec && full.acc.spec.format, expect.format, `${what}: format`);
  if (test.equivalent_response) {
    const spec = full.acc.spec;
    const want = read(spec, test.equivalent_response);
    if (!reply) throw new Error(`${what}: no reply for equivalent_response`);
    expectSame(reply.calls.map(value), want.calls.map(value), `${what}: calls equal read() of the response`);
    expectSame(reply.server_calls.map(serverValue), want.server_calls.map(serverValue), `${what}: server calls equal read()`);
    for (const key of ['truncated', 'finish_reason', 'unknown_types', 'skipped', 'fates', 'text']) expectSame(reply[key], want[key], `${what}: ${key} equals read()`);
  }
  derived(specs, format, test, full, { same, what });
}

function derived(specs, format, test, full, { same, what }) {
  if (test.events) {
    const finalCalls = full.reply ? full.reply.calls : null;
    const handed = full.ready.filter((u) => u.kind === 'call').map((u) => u.call);
    for (let cut = 0; cut < test.events.length; cut++) {
      const part = outcome(specs, format, { events: test.events.slice(0, cut) });
      const early = part.ready.filter((u) => u.kind === 'call').map((u) => u.call);
      early.forEach((call, i) => {
        if (!handed[i] || !same(value(call), value(handed[i]))) throw new Error(`${what}: cut at event ${cut} hands out ${JSON.stringify(value(call))}, the full stream ${JSON.stringify(handed[i] && value(handed[i]))}`);
      });
      if (!finalCalls || part.error && part.error.code !== 'incomplete_stream') continue;
      let cutReply;
      try { cutReply = part.acc.reply(true); } catch (e) { if (e instanceof ToolwireError) continue; throw e; }
      cutReply.calls.forEach((call, i) => {
        if (call.incomplete) return;
        if (!finalCalls[i] || !same(value(call), value(finalCalls[i]))) throw new Error(`${what}: cut at event ${cut}: call ${i} is neither incomplete nor the full stream's`);
      });
    }
  } else {
    const bytes = Buffer.byteLength(test.sse, 'utf8');
    const key = (o) => JSON.stringify([o.ready.map((u) => u.text), o.error && o.error.code, o.reply && o.reply.calls.map(value)]);
    const want = key(full);
    for (let split = 0; split <= bytes; split++) {
      const got = key(outcome(specs, format, test, split));
      if (got !== want) throw new Error(`${what}: split at byte ${split} gives ${got}, whole ${want}`);
    }
  }
}
