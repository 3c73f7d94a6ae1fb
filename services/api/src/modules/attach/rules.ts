import { lazyModule } from '@sprout/core/lazy';
import { AppError, badRequest } from '@sprout/core/errors';

/** file-type, loaded on the first upload (not at start: see @sprout/core/lazy). */
const fileType = lazyModule(() => import('file-type'));

/**
 * What may be uploaded: the types Sprout keeps (by the extension a name carries), the kinds a
 * caller names (`kind`: avatar, photo, document, media; none = any of photo, document, media)
 * and each one's size limit. The type is read from the content (`file-type`), never from the
 * name: the name's extension must agree with it.
 */
export type Group = 'image' | 'document' | 'media';

export interface FileType {
  ext: string;
  mime: string;
  group: Group;
}

const TYPES: FileType[] = [
  { ext: 'jpg', mime: 'image/jpeg', group: 'image' },
  { ext: 'png', mime: 'image/png', group: 'image' },
  { ext: 'gif', mime: 'image/gif', group: 'image' },
  { ext: 'webp', mime: 'image/webp', group: 'image' },
  // Phones' photos (issue 18). Kept and served as they are: sharp's prebuilt libvips cannot decode HEVC, so no thumbnail.
  { ext: 'heic', mime: 'image/heic', group: 'image' },
  { ext: 'heif', mime: 'image/heif', group: 'image' },
  { ext: 'pdf', mime: 'application/pdf', group: 'document' },
  { ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', group: 'document' },
  { ext: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', group: 'document' },
  { ext: 'pptx', mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', group: 'document' },
  { ext: 'txt', mime: 'text/plain; charset=utf-8', group: 'document' },
  { ext: 'mp4', mime: 'video/mp4', group: 'media' },
  { ext: 'webm', mime: 'video/webm', group: 'media' },
  { ext: 'mp3', mime: 'audio/mpeg', group: 'media' },
  { ext: 'zip', mime: 'application/zip', group: 'media' },
];
const BY_EXT = new Map(TYPES.map((t) => [t.ext, t]));

/** Pictures kept without a thumbnail: the thumbnail job cannot decode them (its link answers the original). */
export const NO_THUMBNAIL_EXTS: readonly string[] = ['heic', 'heif'];

/** Whether a stored picture (by its extension, object key or content type) gets a thumbnail. */
export const thumbnailable = (extKeyOrType: string) =>
  !NO_THUMBNAIL_EXTS.includes((extKeyOrType.split(/[./]/).pop() ?? '').toLowerCase());

export const MB = 1024 * 1024;
export const KB = 1024;

/** Largest file of each group, whatever the kind. */
export const GROUP_MAX: Record<Group, number> = { image: 10 * MB, document: 50 * MB, media: 2048 * MB };

export const KINDS = ['avatar', 'photo', 'document', 'media', 'file'] as const;
export type Kind = (typeof KINDS)[number];

interface KindRule {
  /** The extensions it takes. */
  exts: readonly string[];
  /** Its own limit (bytes), under the groups' limits. */
  max?: number;
  /** Message keys of its refusals, when not the general ones (the avatar's are the spec's). */
  badType?: string;
  tooBig?: string;
}

const ofGroups = (...groups: Group[]) => TYPES.filter((t) => groups.includes(t.group)).map((t) => t.ext);

export const KIND_RULES: Record<Kind, KindRule> = {
  // Spec §2, §5: only jpg/png, not over 500kb, with the personal-info page's messages.
  avatar: { exts: ['jpg', 'png'], max: 500 * KB, badType: 'attach.avatarType', tooBig: 'attach.avatarSize' },
  photo: { exts: ofGroups('image') },
  document: { exts: ofGroups('document') },
  media: { exts: ofGroups('media') },
  file: { exts: ofGroups('image', 'document', 'media') },
};

/** The upper bound a kind's upload can reach, before its type is known (the stream's cut-off). */
export function kindCeiling(kind: Kind): number {
  const rule = KIND_RULES[kind];
  const groups = Math.max(...rule.exts.map((e) => GROUP_MAX[(BY_EXT.get(e) as FileType).group]));
  return Math.min(rule.max ?? Number.POSITIVE_INFINITY, groups);
}

/** A limit as people read it: 500KB, 10MB. */
export const sizeText = (bytes: number) => (bytes < MB ? `${Math.round(bytes / KB)}KB` : `${Math.round(bytes / MB)}MB`);

/** The extension a file name carries (lower case, jpeg → jpg), or ''. */
export function extensionOf(fileName: string): string {
  const m = /\.([A-Za-z0-9]{1,16})$/.exec(fileName.trim());
  const ext = m ? (m[1] as string).toLowerCase() : '';
  return ext === 'jpeg' ? 'jpg' : ext;
}

/** A file name as kept: its last path segment, trimmed, at most 255 characters (the extension kept). */
export function cleanName(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop()?.trim() ?? '';
  if (base.length <= 255) return base;
  const ext = extensionOf(base);
  return `${base.slice(0, 250 - ext.length)}${ext ? `.${ext}` : ''}`;
}

/** UTF-8 text without NUL bytes (a sample may end inside a character). */
function looksLikeText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The extension file-type's answer stands for in our list (zip content is a fair Office document). */
async function contentExt(sample: Uint8Array, named: string): Promise<string | undefined> {
  const found = await (await fileType()).fileTypeFromBuffer(sample);
  if (!found) return named === 'txt' && looksLikeText(sample) ? 'txt' : undefined;
  if (found.ext === 'zip' && ['docx', 'xlsx', 'pptx'].includes(named)) return named;
  // file-type names every HEIF container `heic` (ftyp heic/heix/mif1…): a .heif name agrees with it.
  if (found.ext === 'heic' && named === 'heif') return named;
  return found.ext === 'jpeg' ? 'jpg' : found.ext;
}

/**
 * The type of an upload of `kind` named `fileName` whose content starts with `sample`, and the
 * most bytes it may have; refuses (400) an empty file, a type the kind does not take, a name
 * whose extension the content contradicts.
 */
export async function checkUpload(
  kind: Kind,
  fileName: string,
  sample: Uint8Array,
): Promise<FileType & { max: number }> {
  const rule = KIND_RULES[kind];
  if (sample.length === 0) throw badRequest('attach.empty');
  const named = extensionOf(fileName);
  const badType = () =>
    badRequest(rule.badType ?? 'attach.badType', { ext: named || '?', allowed: rule.exts.join(', ') });
  if (!named || !rule.exts.includes(named)) throw badType();
  const actual = await contentExt(sample, named);
  if (actual !== named) {
    // Content of a type the kind would not take at all is its type's refusal (a gif renamed .png for an avatar).
    if (rule.badType && actual && !rule.exts.includes(actual)) throw badType();
    throw badRequest('attach.mismatch', { ext: named });
  }
  const type = BY_EXT.get(named) as FileType;
  return { ...type, max: Math.min(rule.max ?? Number.POSITIVE_INFINITY, GROUP_MAX[type.group]) };
}

/** The refusal of a file over `max` bytes for `kind`. */
export function tooBig(kind: Kind, max: number): AppError {
  const key = KIND_RULES[kind].tooBig ?? 'attach.tooBig';
  return new AppError('payload_too_large', key, { limit: sizeText(max) });
}

/** A kind named by a form field or the query (absent → `file`); anything else is a 400. */
export function kindOf(value: unknown): Kind {
  if (value === undefined || value === null || value === '') return 'file';
  if (typeof value === 'string' && (KINDS as readonly string[]).includes(value)) return value as Kind;
  throw badRequest('attach.badKind', { kinds: KINDS.join(', ') });
}

/** The most bytes a file named with `ext` may have as `kind` (its group's and its kind's limits). */
export function limitOf(kind: Kind, ext: string): number {
  const type = BY_EXT.get(ext);
  const group = type ? GROUP_MAX[type.group] : 0;
  return Math.min(KIND_RULES[kind].max ?? Number.POSITIVE_INFINITY, group);
}
