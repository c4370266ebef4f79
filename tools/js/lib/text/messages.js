// `messages` instead of block and payload (specs/README.md §1b.3): the reply as channelled
// messages (OpenAI Harmony). A message to calls_prefix + NAME is a call; every other message
// stays in the text as written.
import { decodeArguments } from '../json.js';
import { call, earliest, isBlank, plausibleName, strip, UNFINISHED } from './common.js';

// The word right after marker in a header, up to a blank or '<|'; null when the marker is absent.
function wordAfter(header, marker) {
  const at = header.indexOf(marker);
  if (at === -1) return null;
  let i = at + marker.length; const start = i;
  while (i < header.length && !isBlank(header[i]) && !header.startsWith('<|', i)) i++;
  return header.slice(start, i);
}

export function messageScanner(m) {
  return (text) => {
    const calls = []; const cuts = [];
    // the next header: at a start marker, or at a channel marker (the prompt held its start)
    const header = (from) => {
      const [at] = earliest(text, [m.start, m.channel], from);
      return [at, at !== -1 && text.startsWith(m.start, at) ? at + m.start.length : at];
    };
    let [headerAt, headerBody] = header(0);
    while (headerAt !== -1) {
      const nextStart = text.indexOf(m.start, headerBody);
      const messageAt = text.indexOf(m.message, headerBody);
      if (messageAt === -1 || (nextStart !== -1 && nextStart < messageAt)) { // a header that never ends is text
        if (nextStart === -1) break;
        [headerAt, headerBody] = [nextStart, nextStart + m.start.length]; continue;
      }
      const head = text.slice(headerBody, messageAt);
      const bodyAt = messageAt + m.message.length;
      const [endAt, endLength] = earliest(text, m.ends, bodyAt);
      const following = text.indexOf(m.start, bodyAt);
      const closed = endAt !== -1 && (following === -1 || endAt < following);
      const bodyEnd = closed ? endAt : (following === -1 ? text.length : following);
      const messageEnd = closed ? endAt + endLength : bodyEnd;
      const recipient = wordAfter(head, m.recipient);
      if (recipient !== null && recipient.startsWith(m.calls_prefix) && plausibleName(recipient.slice(m.calls_prefix.length))) {
        const name = recipient.slice(m.calls_prefix.length);
        if (!closed) calls.push(call(name, {}, '', UNFINISHED));
        else {
          const d = decodeArguments(strip(text.slice(bodyAt, bodyEnd)));
          calls.push(call(name, d.arguments, '', d.code));
        }
        cuts.push([headerAt, messageEnd]);
      }
      [headerAt, headerBody] = header(messageEnd);
    }
    let clean = ''; let from = 0;
    for (const [a, b] of cuts) { clean += text.slice(from, a); from = b; }
    return { clean_text: strip(clean + text.slice(from)), calls };
  };
}
