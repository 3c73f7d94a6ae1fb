/**
 * MD5 (RFC 1321) of a string (UTF-8 encoded) or bytes, as 32 lowercase hex digits.
 * Only used because the BladeX token endpoint expects the password md5-hashed in
 * user mode; it is not a security measure.
 */

/** Per-round left-rotate amounts. */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21] as const;

/** K[i] = floor(|sin(i + 1)| × 2^32), as in the RFC. */
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);

export function md5(input: string | Uint8Array): string {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const length = bytes.length;

  // Message + 0x80 + zero padding + 64-bit little-endian bit length, a multiple of 64 bytes.
  const padded = new Uint8Array((((length + 8) >>> 6) + 1) * 64);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, (length << 3) >>> 0, true);
  view.setUint32(padded.length - 4, Math.floor(length / 0x20000000), true);

  let h0 = 0x67452301;
  let h1 = 0xefcdab89 | 0;
  let h2 = 0x98badcfe | 0;
  let h3 = 0x10325476;

  for (let offset = 0; offset < padded.length; offset += 64) {
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const sum = (a + f + (K[i] ?? 0) + view.getUint32(offset + g * 4, true)) | 0;
      const shift = SHIFTS[(i >>> 4) * 4 + (i & 3)] ?? 0;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
  }

  const out = new DataView(new ArrayBuffer(16));
  out.setInt32(0, h0, true);
  out.setInt32(4, h1, true);
  out.setInt32(8, h2, true);
  out.setInt32(12, h3, true);
  let hex = '';
  for (let i = 0; i < 16; i++) hex += out.getUint8(i).toString(16).padStart(2, '0');
  return hex;
}
