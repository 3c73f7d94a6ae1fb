import { describe, expect, it } from 'vitest';
import { AppError } from '@sprout/core/errors';
import { checkUpload, cleanName, extensionOf, kindCeiling, kindOf, limitOf, sizeText } from './rules';

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0,
  0, 0,
]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00');
const PDF = new TextEncoder().encode('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n');

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).messageKey;
};

describe('upload rules', () => {
  it('reads the type from the content and wants the name to agree', async () => {
    expect((await checkUpload('file', 'a.PNG', PNG)).mime).toBe('image/png');
    expect(await refusal(checkUpload('file', 'a.pdf', PNG))).toBe('attach.mismatch');
    expect(await refusal(checkUpload('file', 'a.png', PDF))).toBe('attach.mismatch');
    expect(await refusal(checkUpload('file', 'a.png', new Uint8Array(0)))).toBe('attach.empty');
    expect(await refusal(checkUpload('file', 'noext', PDF))).toBe('attach.badType');
    expect((await checkUpload('document', '说明.txt', new TextEncoder().encode('你好'))).ext).toBe('txt');
    expect(await refusal(checkUpload('document', 'x.txt', Uint8Array.from([0xff, 0xfe, 0])))).toBe('attach.mismatch');
  });

  it('gives the avatar the spec’s refusals: a gif, even named .png, is a wrong type', async () => {
    expect(await refusal(checkUpload('avatar', 'me.gif', GIF))).toBe('attach.avatarType');
    expect(await refusal(checkUpload('avatar', 'me.png', GIF))).toBe('attach.avatarType');
    expect(await refusal(checkUpload('avatar', 'me.png', PDF))).toBe('attach.avatarType');
    // A jpg named .png: a type the avatar takes, but not the one its name says.
    const JPG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
    expect(await refusal(checkUpload('avatar', 'me.png', JPG))).toBe('attach.mismatch');
    expect((await checkUpload('avatar', 'me.png', PNG)).max).toBe(500 * 1024);
  });

  it('limits each kind and group', () => {
    expect(kindCeiling('avatar')).toBe(500 * 1024);
    expect(kindCeiling('photo')).toBe(10 * 1024 * 1024);
    expect(kindCeiling('document')).toBe(50 * 1024 * 1024);
    expect(limitOf('file', 'png')).toBe(10 * 1024 * 1024);
    expect(limitOf('file', 'mp4')).toBe(2048 * 1024 * 1024);
    expect(sizeText(500 * 1024)).toBe('500KB');
    expect(sizeText(10 * 1024 * 1024)).toBe('10MB');
  });

  it('keeps a name’s last segment and its extension', () => {
    expect(extensionOf('Photo.JPEG')).toBe('jpg');
    expect(cleanName('../../etc/passwd.txt')).toBe('passwd.txt');
    expect(cleanName('C:\\Users\\a\\b.pdf')).toBe('b.pdf');
    const long = cleanName(`${'长'.repeat(300)}.docx`);
    expect(long.length).toBeLessThanOrEqual(255);
    expect(long.endsWith('.docx')).toBe(true);
    expect(kindOf(undefined)).toBe('file');
    expect(() => kindOf('movie')).toThrow(AppError);
  });
});
