import { describe, expect, it } from 'vitest';
import { md5 } from './md5';

// Expected digests come from Node's crypto.createHash('md5').
describe('md5', () => {
  it.each([
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
    ['admin', '21232f297a57a5a743894a0e4a801fc3'],
    ['123456', 'e10adc3949ba59abbe56e057f20f883e'],
    ['The quick brown fox jumps over the lazy dog', '9e107d9d372bb6826bd81d3542a419d6'],
  ])('hashes %j', (input, expected) => {
    expect(md5(input)).toBe(expected);
  });

  it('encodes non-ASCII text as UTF-8 first', () => {
    expect(md5('萌芽教学管理平台')).toBe('769d619f6c0cf76f89800fb7ff90a40a');
    expect(md5('pässwörd😀')).toBe('eea449faace578581131b87707d5de93');
  });

  // 55/56 and 63/64/65 bytes are where the padding spills into an extra block.
  it.each([
    [55, '04364420e25c512fd958a70738aa8f72'],
    [56, '668a72d5ba17f08e62dabcafad6db14b'],
    [63, '7dc2ca208106a2f703567bdff99d8981'],
    [64, 'c1bb4f81d892b2d57947682aeb252456'],
    [65, '1bc932052302d074bdec39795fe00cf6'],
    [119, 'ab347a5f68c8a443cfcddc633f12c24f'],
    [120, 'fb98667f98096de92620b64f46e1c5b5'],
    [1000, '398533d48111e9f664b1f64cb10c4b63'],
  ])('handles padding boundaries (%i bytes)', (n, expected) => {
    expect(md5('x'.repeat(n))).toBe(expected);
  });

  it('accepts raw bytes', () => {
    expect(md5(new TextEncoder().encode('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
  });
});
