import { strFromU8, unzipSync } from 'fflate';

/**
 * XSS payloads for the rich-text tests (issue 14): the sanitiser's unit tests, the API's
 * write paths, the Word export and the browser. A payload that runs sets `window.__xss`
 * or opens a dialog, which the browser test watches for.
 */

/** Markup a teacher could paste or a client could send as text. */
export const XSS_STRINGS: readonly string[] = [
  '<script>window.__xss=1</script>',
  '<SCRIPT SRC=//xss.example/x.js></SCRIPT>',
  '<img src=x onerror="window.__xss=1">',
  '<img src="x" onerror=alert(document.domain)>',
  '<svg onload=window.__xss=1>',
  '<svg><script>window.__xss=1</script></svg>',
  '<body onload=window.__xss=1>',
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
  '<a href="javascript:window.__xss=1">click</a>',
  '<a href="JaVaScRiPt:window.__xss=1">click</a>',
  '<a href="&#106;avascript:window.__xss=1">entity</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg==">data</a>',
  '<div style="background:url(javascript:window.__xss=1)">style</div>',
  '<p style="width: expression(window.__xss=1)">expression</p>',
  '<style>@import "javascript:window.__xss=1";</style>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>',
  '<<script>script>window.__xss=1<</script>/script>',
  '<scr<script>ipt>window.__xss=1</scr</script>ipt>',
  '"><img src=x onerror=window.__xss=1>',
  "'--><svg/onload=window.__xss=1>",
  '<details open ontoggle=window.__xss=1>',
  '<input autofocus onfocus=window.__xss=1>',
  '<object data="javascript:window.__xss=1"></object>',
  '<embed src="data:text/html,<script>parent.__xss=1</script>">',
  '<form><button formaction=javascript:window.__xss=1>go</button></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:window.__xss=1">',
  '<base href="javascript:/">',
  '&lt;script&gt;window.__xss=1&lt;/script&gt;',
  '&#60;img src=x onerror=window.__xss=1&#62;',
  '\u003cimg src=x onerror=window.__xss=1\u003e',
  '{{constructor.constructor("window.__xss=1")()}}',
];

/** Link targets that must not survive (each would run script, or is not a web or mail link). */
export const XSS_HREFS: readonly string[] = [
  'javascript:window.__xss=1',
  'JaVaScRiPt:window.__xss=1',
  ' javascript:window.__xss=1',
  'java\tscript:window.__xss=1',
  'java\nscript:window.__xss=1',
  '\u0001javascript:window.__xss=1',
  'javascript&#58;window.__xss=1',
  '&#106;avascript:window.__xss=1',
  'vbscript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg==',
  'data:image/svg+xml,<svg onload=window.__xss=1>',
  'file:///etc/passwd',
  '//xss.example/',
  '/relative/path',
];

/**
 * No C0 control character but tab and newlines: the API's shared input validation refuses
 * the others with a 400 before any sanitising, so API tests send only these.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
export const noControlChars = (s: string) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);

/** Link targets that stay. */
export const SAFE_HREFS: readonly string[] = [
  'https://example.org/a?b=1#c',
  'http://example.org',
  'mailto:teacher@example.org',
];

/**
 * A Tiptap document carrying every payload: as text, as link targets, as unknown nodes and
 * marks, as attributes the editor never writes. What a teacher wrote (the `keep` texts) must
 * survive sanitising.
 */
export function xssDoc(opts: { controlChars?: boolean } = {}): { type: 'doc'; content: unknown[] } {
  const hrefs = opts.controlChars === false ? XSS_HREFS.filter(noControlChars) : XSS_HREFS;
  const text = (t: string, marks?: unknown[]) => (marks ? { type: 'text', text: t, marks } : { type: 'text', text: t });
  return {
    type: 'doc',
    content: [
      { type: 'paragraph', content: [text('keep: plain words')] },
      ...XSS_STRINGS.map((s) => ({ type: 'paragraph', content: [text(s)] })),
      {
        type: 'paragraph',
        content: hrefs.map((href, i) =>
          text(`bad link ${i}`, [{ type: 'link', attrs: { href, target: '_blank', class: 'mantine-Modal-root' } }]),
        ),
      },
      {
        type: 'paragraph',
        content: SAFE_HREFS.map((href, i) =>
          text(`keep: good link ${i}`, [
            { type: 'bold' },
            { type: 'link', attrs: { href, target: '_blank', rel: 'noopener noreferrer nofollow', class: null } },
          ]),
        ),
      },
      {
        type: 'paragraph',
        attrs: { onclick: 'window.__xss=1', style: 'background:url(javascript:window.__xss=1)', class: 'x' },
        content: [
          text('keep: styled', [
            { type: 'textStyle', attrs: { style: 'color: expression(window.__xss=1)' } },
            { type: 'italic', attrs: { onmouseover: 'window.__xss=1' } },
          ]),
        ],
      },
      { type: 'image', attrs: { src: 'x', onerror: 'window.__xss=1', alt: 'no image' } },
      { type: 'iframe', attrs: { src: 'javascript:window.__xss=1' }, content: [text('keep: iframe text')] },
      { type: 'script', content: [text('window.__xss=1')] },
      { type: 'svg', attrs: { onload: 'window.__xss=1' } },
      {
        type: 'heading',
        attrs: { level: '1 onmouseover=window.__xss=1', id: 'x' },
        content: [text('keep: heading')],
      },
      {
        type: 'orderedList',
        attrs: { start: '1" onclick="window.__xss=1', type: '1" onclick="window.__xss=1' },
        content: [
          {
            type: 'listItem',
            attrs: { 'data-x': '1' },
            content: [
              {
                type: 'paragraph',
                content: [text('keep: item'), { type: 'mention', attrs: { label: 'x', href: 'javascript:1' } }],
              },
            ],
          },
        ],
      },
      {
        type: 'blockquote',
        content: [{ type: 'details', content: [{ type: 'paragraph', content: [text('keep: quoted')] }] }],
      },
      { type: 'codeBlock', attrs: { language: '"><script>window.__xss=1</script>' }, content: [text('keep: code')] },
      { type: 'paragraph', constructor: { polluted: 1 }, content: [{ type: 'text', text: 'keep: proto' }] },
    ],
  };
}

/**
 * What in a Word file could run script or open a dangerous target: script or HTML parts
 * (`altChunk` imports HTML into the document), hyperlinks and HYPERLINK fields, and any
 * relationship whose target is not a part of the package or an http(s)/mailto URL.
 * Empty for a clean file. Text that merely reads like markup is not a finding: Word shows it.
 */
export function docxThreats(buffer: Uint8Array): string[] {
  const out: string[] = [];
  const files = unzipSync(buffer);
  for (const [name, data] of Object.entries(files)) {
    if (/\.(html?|mht|js|vbs|bin)$/i.test(name)) out.push(`${name}: an active or HTML part`);
    const xml = strFromU8(data);
    if (/<(\w+:)?script[\s>]/i.test(xml)) out.push(`${name}: a script element`);
    if (/<w:altChunk\b/.test(xml)) out.push(`${name}: an altChunk`);
    if (/<w:hyperlink\b/.test(xml)) out.push(`${name}: a hyperlink`);
    if (/<w:instrText[^>]*>[^<]*HYPERLINK/i.test(xml) || /w:instr="[^"]*HYPERLINK/i.test(xml))
      out.push(`${name}: a HYPERLINK field`);
    if (name.endsWith('.rels')) {
      for (const m of xml.matchAll(/<Relationship\b[^>]*>/g)) {
        const target = /Target="([^"]*)"/.exec(m[0])?.[1] ?? '';
        const external = /TargetMode="External"/.test(m[0]);
        if (external ? !/^(https?|mailto):/i.test(target) : /^[a-z][a-z0-9+.-]*:/i.test(target))
          out.push(`${name}: relationship to ${target}`);
      }
    }
  }
  return out;
}
