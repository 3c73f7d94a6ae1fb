/**
 * The one character rule of every text input (query, path, body and header values, and the
 * keys of JSON objects): no C0 control character except tab, line feed and carriage return,
 * no unpaired UTF-16 surrogate and no U+FFFE / U+FFFF. That is what XML 1.0 allows (the Word
 * export writes text into XML) and keeps what PostgreSQL refuses out of every statement: a
 * NUL in `text` (invalid byte sequence) or in `jsonb` (\u0000), and a lone surrogate in
 * `jsonb` (an escape PostgreSQL rejects; in `text` the drivers would silently turn it into
 * U+FFFD).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const FORBIDDEN_TEXT = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|\p{Cs}/u;

/** True when `s` holds no character the text rule forbids. */
export const isAllowedText = (s: string): boolean => !FORBIDDEN_TEXT.test(s);

/** A path to a value inside a request part: object keys and array indexes. */
export type TextPath = Array<string | number>;

/** Where an input (parsed JSON, a query or header object) first breaks the text rule. */
export interface TextProblem {
  path: TextPath;
}

/** One value on the walk's stack (JSON bodies nest deeply: the walk keeps its own stack, never recursing). */
interface Frame {
  value: unknown;
  parent: Frame | null;
  key: string | number;
}

const pathOf = (f: Frame): TextPath => {
  const out: TextPath = [];
  for (let at: Frame | null = f; at?.parent; at = at.parent) out.push(at.key);
  return out.reverse();
};

/** Keys shown in a message are printable: forbidden characters become U+FFFD, long keys are cut. */
const printable = (key: string) => {
  const clean = key.replace(new RegExp(FORBIDDEN_TEXT.source, 'gu'), '\uFFFD');
  return clean.length > 64 ? `${clean.slice(0, 64)}…` : clean;
};

/** Binary bodies and streams (uploads) are not text. */
const notText = (v: object) =>
  ArrayBuffer.isView(v) || v instanceof ArrayBuffer || typeof (v as { pipe?: unknown }).pipe === 'function';

/**
 * The first place in `input` where a string value or an object key breaks the text rule, or
 * null. Walks objects and arrays (iteratively: any depth); Buffers and streams (uploads) are
 * not text and are skipped.
 */
export function findForbiddenText(input: unknown): TextProblem | null {
  if (typeof input === 'string') return isAllowedText(input) ? null : { path: [] };
  if (input === null || typeof input !== 'object') return null;
  const stack: Frame[] = [{ value: input, parent: null, key: '' }];
  while (stack.length) {
    const frame = stack.pop() as Frame;
    const v = frame.value;
    if (typeof v === 'string') {
      if (!isAllowedText(v)) return { path: pathOf(frame) };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: frame, key: i });
      continue;
    }
    if (notText(v)) continue;
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      if (!isAllowedText(key)) return { path: [...pathOf(frame), printable(key)] };
      stack.push({ value: (v as Record<string, unknown>)[key], parent: frame, key });
    }
  }
  return null;
}
