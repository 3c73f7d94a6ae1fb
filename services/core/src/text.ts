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

// The same rule, fast (it runs on every request): a plain character class for the controls
// and the two noncharacters, and the engine's own check for unpaired surrogates (free on
// strings without any non-Latin-1 character).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\0-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** True when `s` holds no character the text rule forbids. */
export const isAllowedText = (s: string): boolean => !CONTROL.test(s) && wellFormed(s);

/** A path to a value inside a request part: object keys and array indexes. */
export type TextPath = Array<string | number>;

/** Where an input (parsed JSON, a query or header object) first breaks the text rule. */
export interface TextProblem {
  path: TextPath;
}

/** An object or array on the walk's stack (JSON nests deeply: the walk never recurses). */
interface Frame {
  value: object;
  parent: Frame | null;
  key: string | number;
}

const pathOf = (f: Frame, last: string | number): TextPath => {
  const out: TextPath = [last];
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
  if (input === null || typeof input !== 'object' || notText(input)) return null;
  const stack: Frame[] = [{ value: input, parent: null, key: '' }];
  // Each object's own strings first, then its objects and arrays (depth first, in order).
  while (stack.length) {
    const frame = stack.pop() as Frame;
    const v = frame.value;
    const children: Frame[] = [];
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (typeof item === 'string') {
          if (!isAllowedText(item)) return { path: pathOf(frame, i) };
        } else if (item !== null && typeof item === 'object' && !notText(item))
          children.push({ value: item, parent: frame, key: i });
      }
    } else {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue;
        if (!isAllowedText(key)) return { path: pathOf(frame, printable(key)) };
        const item: unknown = (v as Record<string, unknown>)[key];
        if (typeof item === 'string') {
          if (!isAllowedText(item)) return { path: pathOf(frame, key) };
        } else if (item !== null && typeof item === 'object' && !notText(item))
          children.push({ value: item, parent: frame, key });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Frame);
  }
  return null;
}

const FORBIDDEN_ALL = new RegExp(FORBIDDEN_TEXT.source, 'gu');

/**
 * `s` without the characters the text rule forbids: for text Sprout did not get from a
 * request and cannot send back (a social provider's profile), kept rather than refused.
 */
export const stripForbiddenText = (s: string): string => (isAllowedText(s) ? s : s.replace(FORBIDDEN_ALL, ''));
