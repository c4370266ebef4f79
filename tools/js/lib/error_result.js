// Why a call cannot run, and the error result a rejected call is answered with (§1.3.1, §6.3):
// the same facts that reject it, one sentence each, as Python's Reply.error_result words them.
// Call data is the implementation's (snake_case keys, as lib/interpreter.js and lib/tools.js give it).

const quoted = (name) => `'${String(name)}'`;

// One sentence per reason the call cannot run; empty when nothing is wrong with it.
export function errorReasons(call) {
  const reasons = [];
  const errors = call.arguments_errors || [];
  if (call.arguments_undecodable) {
    const detail = call.arguments_error || 'not a JSON object';
    reasons.push(`the arguments of the call to ${quoted(call.name)} could not be decoded (${detail});`
      + ' send the call again with arguments that are one JSON object');
  }
  if (call.unknown_tool) {
    const offered = errors.filter((e) => e.keyword === 'unknown_tool').map((e) => e.message).join(' ');
    reasons.push(`no tool named ${quoted(call.name)} was offered; call one of the tools you were given`
      + (offered ? `. ${offered.replace(/\.+$/, '')}` : ''));
  }
  if (call.arguments_invalid) {
    const shown = errors.map((e) => `at ${e.pointer || 'the top level'}: ${e.message} (${e.keyword})`).join('; ')
      || 'they fail the schema';
    reasons.push(`the arguments of the call to ${quoted(call.name)} do not match the tool's parameters`
      + ` schema (${shown}); send the call again with arguments that match it`);
  }
  return reasons;
}

// The text to send back as the tool result of a rejected call; a call with nothing wrong with
// it has no error to report (a TypeError, never a made-up message: run it instead).
export function errorResult(call) {
  const reasons = errorReasons(call);
  if (!reasons.length) {
    throw new TypeError(`the call to ${quoted(call.name)} (id '${call.id || ''}') has no error to report: run it instead`);
  }
  return `Error: ${reasons.join('; ')}.`;
}
