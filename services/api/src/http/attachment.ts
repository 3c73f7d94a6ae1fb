import type { FastifyReply } from 'fastify';

/** Unicode's bidirectional formatting characters (LRM, RLM, ALM, embeddings, overrides, isolates). */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `attachment; filename*=UTF-8''…` so Chinese file names arrive intact (RFC 6266 / 5987). */
export function attachment(reply: FastifyReply, name: string, type: string) {
  // Bidirectional controls would make `\u202Egnp.exe.docx` display as `xcod.exe.png`.
  const fileName = name.replace(BIDI_CONTROLS, '');
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  reply
    .header('content-type', type)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()]/g, escape)}`,
    )
    .header('cache-control', 'no-store');
}
