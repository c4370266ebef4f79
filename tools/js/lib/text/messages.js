// `messages` instead of block and payload (specs/README.md §1b.3): the reply as channelled
// messages (OpenAI Harmony). A message to calls_prefix + NAME is a call; one to any other
// recipient is refused (a built-in tool); reasoning and answer channels are read apart; a
// header the reply ends inside is accounted for (§1b.12).
import { decodeArguments } from '../json.js';
import { call, earliest, isBlank, plausibleName, strip, UNFINISHED } from './common.js';
import { endsInside, inCodePoints } from './scan.js';

// [word, whole]: the word right after marker in a header, up to a blank or '<|' (''), and
// whether something followed it (a word running to the header's end may be cut).
function wordAfter(header, marker) {
  const at = header.indexOf(marker);
  if (at === -1) return ['', false];
  let i = at + marker.length; const start = i;
  while (i < header.length && !isBlank(header[i]) && !header.startsWith('<|', i)) i++;
  return [header.slice(start, i), i < header.length];
}

export function messageScanner(m) {
  const refuse = m.refuse || [];
  return (text) => {
    const size = text.length;
    const kept = []; const calls = []; const answer = []; const thoughts = []; const skipped = []; const refused = [];
    let truncated = false;
    // The next message from pos (a header without its message marker too, when it names a
    // recipient or the reply ends inside it), or null.
    const next = (pos) => {
      for (;;) {
        const [at] = earliest(text, [m.start, m.channel], pos);
        if (at === -1) return null;
        const following = text.indexOf(m.start, at + 1);
        const messageAt = text.indexOf(m.message, at);
        if (messageAt === -1 || (following !== -1 && following < messageAt)) {
          const stop = following !== -1 ? following : size;
          const header = text.slice(at, stop);
          const [recipient, whole] = wordAfter(header, m.recipient);
          if (recipient || stop === size) {
            return { start: at, body: -1, bodyEnd: stop, end: stop, channel: wordAfter(header, m.channel)[0], recipient, closed: false, whole };
          }
          if (following === -1) return null;
          pos = following; continue;
        }
        const header = text.slice(at, messageAt);
        const body = messageAt + m.message.length;
        const [endAt, endLength] = earliest(text, m.ends, body);
        const nextStart = text.indexOf(m.start, body);
        let bodyEnd; let end; let closed;
        if (endAt === -1 || (nextStart !== -1 && nextStart < endAt)) { bodyEnd = nextStart !== -1 ? nextStart : size; end = bodyEnd; closed = false; }
        else { bodyEnd = endAt; end = endAt + endLength; closed = true; }
        return { start: at, body, bodyEnd, end, channel: wordAfter(header, m.channel)[0], recipient: wordAfter(header, m.recipient)[0], closed, whole: true };
      }
    };
    const region = (msg, code, reason, extra = {}) => ({ start: msg.start, end: msg.end, text: text.slice(msg.start, msg.end), code, reason, ...extra });
    let pos = 0;
    for (;;) {
      const msg = next(pos);
      if (!msg) {
        kept.push([pos, size]);
        const outside = strip(text.slice(pos));
        if (outside) answer.push(outside);
        const cut = endsInside(text, pos, [m.start, m.channel], true); // a header's first marker cut: a message unread
        if (cut) {
          skipped.push({ start: size - cut, end: size, text: text.slice(size - cut), code: 'cut-off', reason: 'the reply ends inside a message\'s header before it could be read' });
          truncated = true;
        }
        break;
      }
      const outside = strip(text.slice(pos, msg.start));
      if (outside) answer.push(outside);
      const cutAtEnd = !msg.closed && msg.end === size;
      const body = msg.body !== -1 ? strip(text.slice(msg.body, msg.bodyEnd)) : '';
      if (msg.recipient && !msg.recipient.startsWith(m.calls_prefix)) {
        kept.push([pos, msg.start]);
        const given = refuse.find((r) => msg.recipient.startsWith(r.recipient_prefix));
        const reason = given ? given.reason : `the message is addressed to '${msg.recipient}', which is no function (${m.calls_prefix}NAME): the client must act on it, and no tool call says how`;
        refused.push(region(msg, 'unmapped_call', reason, { recipient: msg.recipient }));
        truncated = truncated || cutAtEnd;
      } else if (msg.recipient) {
        const name = msg.recipient.slice(m.calls_prefix.length);
        if (msg.whole && plausibleName(name)) {
          kept.push([pos, msg.start]);
          let c;
          if (!msg.closed) { c = call(name, {}, '', UNFINISHED); if (cutAtEnd) c.incomplete = true; }
          else { const d = decodeArguments(body); c = call(name, structuredClone(d.arguments), '', d.code); }
          calls.push(c);
          truncated = truncated || cutAtEnd;
        } else {
          kept.push([pos, msg.end]);
          const code = cutAtEnd ? 'cut-off' : 'not-a-call';
          skipped.push(region(msg, code, code === 'cut-off' ? 'the reply ends inside this message before a call could be read' : "the message's recipient does not name a function"));
          truncated = truncated || cutAtEnd;
          answer.push(strip(text.slice(msg.start, msg.end)));
        }
      } else {
        kept.push([pos, msg.end]);
        if (msg.body === -1) { // a header the reply ends inside
          answer.push(strip(text.slice(msg.start, msg.end)));
          skipped.push(region(msg, 'cut-off', 'the reply ends inside this message before a call could be read'));
          truncated = true;
        } else if (m.reasoning_channels.includes(msg.channel)) { thoughts.push(body); truncated = truncated || cutAtEnd; }
        else if (m.answer_channels.includes(msg.channel)) answer.push(body);
        else answer.push(strip(text.slice(msg.start, msg.end)));
      }
      pos = msg.end;
    }
    return {
      clean_text: strip(kept.map(([a, b]) => text.slice(a, b)).join('')),
      calls,
      text: strip(answer.join('\n\n')),
      reasoning: thoughts.join('\n\n'),
      skipped: inCodePoints(text, skipped),
      truncated,
      refused: inCodePoints(text, refused),
    };
  };
}
