// A provider's own text as an error's message shows it, as the Python package does
// (toolwire.errors._provider_text): each run of spaces, tabs and line breaks one space
// (trimmed at both ends: that space only), every other control character (terminal escapes, NUL, C1
// controls, Unicode line separators, bidirectional overrides) escaped as \xNN or \uNNNN,
// and cut after PROVIDER_TEXT_SHOWN characters (code points), saying how long the whole
// is. The whole text stays on the error's field: a 5 MB error body, a terminal escape or a
// newline in it cannot flood a log, repaint a terminal or forge a log line.
export const PROVIDER_TEXT_SHOWN = 1000;

const SPACES = /[ \t\n\x0b\x0c\r]+/g;
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escape = (char) => {
  const code = char.codePointAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

// The first `limit` code points of `text` and the count of all of them (both by code point,
// as Python counts characters, never by UTF-16 unit).
function head(text, limit) {
  if (text.length <= limit) return [text, [...text].length];
  let end = 0;
  let count = 0;
  for (let i = 0; i < text.length; count += 1) {
    if (count === limit) end = i;
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return [count > limit ? text.slice(0, end) : text, count];
}

export function providerText(value) {
  const text = typeof value === 'string' ? value : String(value);
  const [shown, count] = head(text, PROVIDER_TEXT_SHOWN);
  const clean = shown.replace(SPACES, ' ').replace(/^ | $/g, '').replace(CONTROLS, escape);
  return count > PROVIDER_TEXT_SHOWN ? `${clean}… (cut: ${count.toLocaleString('en-US')} characters in all)` : clean;
}
