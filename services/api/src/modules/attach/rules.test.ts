import { describe, expect, it } from 'vitest';
import { AppError } from '@sprout/core/errors';
import { checkUpload, cleanName, extensionOf, kindCeiling, kindOf, limitOf, sizeText, thumbnailable } from './rules';

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

/** The start of an ISO-BMFF file: an `ftyp` box of major brand `brand` (a phone's HEIC photo starts so). */
const ftyp = (brand: string) => {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(brand, 8, 'latin1');
  box.write('mif1', 16, 'latin1');
  box.write(brand, 20, 'latin1');
  return new Uint8Array(Buffer.concat([box, Buffer.alloc(64, 1)]));
};

describe('upload rules', () => {
  it('takes a HEIC or HEIF photo by its content, with no thumbnail; refuses one named .jpg or a jpg named .heic', async () => {
    const heic = await checkUpload('photo', 'IMG_0001.HEIC', ftyp('heic'));
    expect([heic.ext, heic.mime, heic.max]).toEqual(['heic', 'image/heic', 10 * 1024 * 1024]);
    expect((await checkUpload('photo', 'p.heif', ftyp('mif1'))).mime).toBe('image/heif');
    expect(await refusal(checkUpload('photo', 'IMG_0001.jpg', ftyp('heic')))).toBe('attach.mismatch');
    expect(await refusal(checkUpload('photo', 'IMG_0001.heic', PNG))).toBe('attach.mismatch');
    expect(await refusal(checkUpload('avatar', 'me.heic', ftyp('heic')))).toBe('attach.avatarType');
    expect([thumbnailable('heic'), thumbnailable('1/a.HEIF'), thumbnailable('image/heic')]).toEqual([
      false,
      false,
      false,
    ]);
    expect([thumbnailable('png'), thumbnailable('1/a.jpg'), thumbnailable('image/webp')]).toEqual([true, true, true]);
  });

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
