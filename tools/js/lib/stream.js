import { NotImplemented } from './text.js';
export function runStream() { throw new NotImplemented('stream'); }
