import { setImmediate as nextTurn } from 'node:timers/promises';
import { Zip, ZipDeflate } from 'fflate';

export interface ZipEntry {
  /** The file's name in the archive; `/` makes folders. Cleaned with {@link safeFileName} per segment. */
  name: string;
  data: Buffer | Uint8Array;
}

// Windows forbids these everywhere in a name; `/` and NUL are forbidden everywhere else too.
const ILLEGAL = /[<>:"/\\|?*\p{Cc}]/gu;
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
const MAX_BYTES = 200; // well below the 255-byte name limit of common file systems, room for " (12)"

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

function truncateBytes(s: string, max: number): string {
  if (utf8Length(s) <= max) return s;
  let out = '';
  for (const ch of s) {
    if (utf8Length(out + ch) > max) break;
    out += ch;
  }
  return out;
}

function splitExt(name: string): [stem: string, ext: string] {
  const dot = name.lastIndexOf('.');
  return dot > 0 && name.length - dot <= 16 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
}

/**
 * A file name every common system accepts: no path separators, control or Windows-reserved characters,
 * no trailing dots or spaces, not a reserved device name, at most ~200 UTF-8 bytes (the extension kept).
 * Chinese and other non-ASCII letters are kept. An empty result becomes `fallback`.
 */
export function safeFileName(s: string, fallback = 'file'): string {
  let name = String(s ?? '')
    .normalize('NFC')
    .replace(ILLEGAL, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[. ]+$/, '');
  if (!name || /^\.+$/.test(name)) return fallback;
  if (RESERVED.test(name)) name = `_${name}`;
  const [stem, ext] = splitExt(name);
  const cut = truncateBytes(stem, MAX_BYTES - utf8Length(ext)).trim();
  return (cut || fallback) + ext;
}

function cleanPath(name: string): string {
  const parts = String(name ?? '')
    .split('/')
    .filter((p) => p.trim() !== '' && p.trim() !== '.' && p.trim() !== '..'); // no escaping the archive's root
  return parts.length ? parts.map((p) => safeFileName(p)).join('/') : 'file';
}

/** Gives each name once: the second "x.docx" becomes "x (2).docx" (compared case-insensitively). */
export function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    if (used.has(candidate.toLowerCase())) {
      const slash = name.lastIndexOf('/');
      const dir = name.slice(0, slash + 1);
      const [stem, ext] = splitExt(name.slice(slash + 1));
      for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${dir}${stem} (${n})${ext}`;
    }
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

/**
 * A .zip of the files, names in UTF-8 (flagged as such, so Chinese names survive every unzip tool),
 * unsafe characters removed and equal names numbered. `onProgress(done, total)` is called after each
 * file is compressed (and once with 0 at the start); the event loop gets a turn between files.
 */
export async function zipFiles(
  files: readonly ZipEntry[],
  onProgress?: (done: number, total: number) => void,
): Promise<Buffer> {
  const names = uniqueNames(files.map((f) => cleanPath(f.name)));
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  let finished = false;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure = err;
    else chunks.push(chunk);
    if (final) finished = true;
  });
  const mtime = new Date();
  onProgress?.(0, files.length);
  for (const [i, file] of files.entries()) {
    const entry = new ZipDeflate(names[i]!, { level: 6 });
    entry.mtime = mtime;
    zip.add(entry);
    entry.push(file.data, true);
    if (failure) throw failure;
    onProgress?.(i + 1, files.length);
    if (i + 1 < files.length) await nextTurn();
  }
  zip.end();
  if (failure) throw failure;
  if (!finished) throw new Error('zip: archive not finished');
  return Buffer.concat(chunks);
}
