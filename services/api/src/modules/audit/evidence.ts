import { createHash } from 'node:crypto';
import {
  AlignmentType,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { diffValues, type RecordedEvent, requireDecider } from '@sprout/core/events';
import { type Lang, type Params, t } from '@sprout/core/i18n';
import { presentChange, presentEvent } from './presenters';

/** Event types that are review steps: the evidence keeps the state after each. */
const REVIEW_STEP = /Submitted|Returned|Approved|Rejected|MarkedExcellent|Deleted/;

export interface EvidenceInput {
  tenantId: string;
  streamId: string;
  streamType: string;
  /** The stream's version the evidence stops at. */
  version: number;
  /** The stream's events up to `version`, erased values already in place. */
  events: RecordedEvent[];
  timeZone: string;
}

/**
 * One stream's history as a machine-readable document: its events, the state after each review
 * step, and each event's field-level changes. The same stream at the same version always gives
 * the same bytes (no export time inside), so its sha256 proves later that a file is unaltered.
 */
export function evidenceJson(input: EvidenceInput): { json: string; sha256: string } {
  const decider = requireDecider(input.streamType);
  let state = decider.initialState();
  const steps: Array<{ version: number; type: string; time: string | null; state: unknown }> = [];
  const diffs: Array<{ version: number; type: string; changes: ReturnType<typeof presentChange>[] }> = [];
  for (const e of input.events) {
    const before = JSON.parse(JSON.stringify(state ?? null));
    state = decider.evolve(state, e as never);
    const after = JSON.parse(JSON.stringify(state ?? null));
    diffs.push({ version: e.streamVersion, type: e.type, changes: diffValues(before, after).map(presentChange) });
    if (REVIEW_STEP.test(e.type))
      steps.push({ version: e.streamVersion, type: e.type, time: time(e, input), state: after });
  }
  const doc = {
    format: 'sprout-audit-evidence/1',
    tenantId: input.tenantId,
    streamId: input.streamId,
    streamType: input.streamType,
    version: input.version,
    events: input.events.map((e) => presentEvent(e, input.timeZone)),
    reviewSteps: steps,
    diffs,
    finalState: JSON.parse(JSON.stringify(state ?? null)),
  };
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  return { json, sha256: createHash('sha256').update(json, 'utf8').digest('hex') };
}

const time = (e: RecordedEvent, input: EvidenceInput) => presentEvent(e, input.timeZone).time;

const short = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v ?? null);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
};

const cell = (text: string, bold = false) =>
  new TableCell({ children: [new Paragraph({ children: [new TextRun({ text, bold, size: 18 })] })] });

/**
 * The evidence as a Word document for people: the stream, the JSON file's sha256 printed at
 * the top and at the end, then every event with who, when, from where, the comment and the
 * fields it changed.
 */
export async function evidenceDocx(input: EvidenceInput, ev: { json: string; sha256: string }, lang: Lang) {
  const doc = JSON.parse(ev.json) as {
    events: ReturnType<typeof presentEvent>[];
    diffs: Array<{ version: number; changes: ReturnType<typeof presentChange>[] }>;
  };
  const L = (key: string, params?: Params) => t(lang, `audit.evidence.${key}`, params);
  const hashLine = () =>
    new Paragraph({
      children: [
        new TextRun({ text: `${L('hash')} SHA-256: `, bold: true }),
        new TextRun({ text: ev.sha256, font: 'Courier New' }),
      ],
    });
  const body: (Paragraph | Table)[] = [
    new Paragraph({ heading: HeadingLevel.TITLE, alignment: AlignmentType.CENTER, text: L('title') }),
    new Paragraph({
      text: `${L('stream')}: ${input.streamId} (${input.streamType}), ${L('version')}: ${input.version}`,
    }),
    hashLine(),
    new Paragraph({ text: L('hashNote') }),
  ];
  for (const e of doc.events) {
    const changes = doc.diffs.find((d) => d.version === e.version)?.changes ?? [];
    const data = (e.data ?? {}) as { comment?: unknown };
    body.push(
      new Paragraph({ heading: HeadingLevel.HEADING_2, text: `v${e.version} ${e.type}` }),
      new Paragraph({
        text: [
          `${L('who')}: ${e.actorName ?? e.actorId ?? '-'}`,
          `${L('when')}: ${e.time ?? '-'}`,
          `${L('address')}: ${e.ip ?? '-'}`,
          `${L('client')}: ${e.userAgent ?? '-'}`,
        ].join('  '),
      }),
    );
    if (typeof data.comment === 'string' && data.comment)
      body.push(new Paragraph({ text: `${L('comment')}: ${data.comment}` }));
    if (changes.length)
      body.push(
        new Table({
          width: { size: 100, type: WidthType.PERCENTAGE },
          rows: [
            new TableRow({ children: [cell(L('field'), true), cell(L('before'), true), cell(L('after'), true)] }),
            ...changes.map((c) => new TableRow({ children: [cell(c.path), cell(short(c.from)), cell(short(c.to))] })),
          ],
        }),
      );
  }
  body.push(hashLine());
  const file = new Document({ sections: [{ children: body }] });
  return Packer.toBuffer(file);
}
