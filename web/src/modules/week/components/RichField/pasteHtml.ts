import DOMPurify from 'dompurify';

/**
 * HTML pasted into a rich field (from Word, a web page, another editor) before the editor
 * parses it: DOMPurify's HTML profile (no script, event handler, SVG or MathML) and links to
 * http, https and mailto only. A second line: the editor's schema keeps only its own nodes
 * and marks, Tiptap's link refuses unsafe targets, and the server sanitises what is saved
 * (services/core/src/records/rich-sanitize.ts). Styles stay: the editor reads bold and
 * italic from them (Google Docs, Word).
 */
export function cleanPastedHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
  });
}
