// `messages` instead of block and payload (specs/README.md §1b.8): the reply as channelled
// messages (OpenAI Harmony). A message to calls_prefix + NAME is a call; every other message
// stays in the text as written.
import { decodeArguments } from '../json.js';
import { call, earliest, isBlank, plausibleName, skipBlanks, strip, UNFINISHED } from './common.js';

// The word after marker in a header: up to a blank or '<|'; null when the marker is absent.
function wordAfter(header, marker) {
  const at = header.indexOf(marker);
  if (at === -1) return null;
  let i = skipBlanks(header, at + marker.length); const start = i;
  while (i < header.length && !isBlank(header[i]) && !header.startsWith('<|', i)) i++;
  return header.slice(start, i);
}

export function messageScanner(m) {
  return (text) => {
    const calls = []; const cuts = [];
    // the first header may begin at the channel marker (the prompt held its start marker)
    let pos = 0;
    const first = skipBlanks(text, 0);
    const firstStart = text.indexOf(m.start);
    let headerAt = text.startsWith(m.channel, first) && (firstStart === -1 || first < firstStart) ? first : firstStart;
    let headerBody = headerAt === first && headerAt !== firstStart ? first : headerAt + m.start.length;
    while (headerAt !== -1) {
      const nextStart = text.indexOf(m.start, headerBody);
      const messageAt = text.indexOf(m.message, headerBody);
      if (messageAt === -1 || (nextStart !== -1 && nextStart < messageAt)) { // a header that never ends is text
        headerAt = nextStart; headerBody = nextStart + m.start.length; continue;
      }
      const header = text.slice(headerBody, messageAt);
      const bodyAt = messageAt + m.message.length;
      const [endAt, endLength] = earliest(text, m.ends, bodyAt);
      const following = text.indexOf(m.start, bodyAt);
      const closed = endAt !== -1 && (following === -1 || endAt < following);
      const bodyEnd = closed ? endAt : (following === -1 ? text.length : following);
      const messageEnd = closed ? endAt + endLength : bodyEnd;
      const recipient = wordAfter(header, m.recipient);
      if (recipient !== null && recipient.startsWith(m.calls_prefix) && plausibleName(recipient.slice(m.calls_prefix.length))) {
        const name = recipient.slice(m.calls_prefix.length);
        if (!closed) calls.push(call(name, {}, '', UNFINISHED));
        else {
          const d = decodeArguments(strip(text.slice(bodyAt, bodyEnd)));
          calls.push(call(name, d.arguments, '', d.code));
        }
        cuts.push([headerAt, messageEnd]);
      }
      pos = messageEnd;
      headerAt = text.indexOf(m.start, pos); headerBody = headerAt + m.start.length;
    }
    let clean = ''; let from = 0;
    for (const [a, b] of cuts) { clean += text.slice(from, a); from = b; }
    return { clean_text: strip(clean + text.slice(from)), calls };
  };
}
