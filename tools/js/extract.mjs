// Reads [{format, text}] as JSON on stdin, prints [{clean_text, calls, text, reasoning, skipped,
// truncated, refused}] (or {error}) on stdout: the JavaScript side of tests/test_js_text.py's
// differential check against the Python.
import fs from 'node:fs';
import { textScanner } from './lib/text.js';

const scanners = {};
const scannerFor = (format) => (scanners[format] ||= textScanner(fs.readFileSync(new URL(`../../specs/text/${format}.yaml`, import.meta.url), 'utf8')));
const out = JSON.parse(fs.readFileSync(0, 'utf8')).map(({ format, text }) => {
  try { return scannerFor(format)(text); } catch (error) { return { error: String(error) }; }
});
process.stdout.write(JSON.stringify(out));
