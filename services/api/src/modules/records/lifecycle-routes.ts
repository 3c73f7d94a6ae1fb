import { isEditableStatus, ReviewRecordSchema, SubmitRecordSchema } from '@sprout/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Lang } from '@sprout/core/i18n';
import { ok } from '@sprout/core/http/envelope';
import { type CommandContext, IdParamSchema, requireButton, runCommand, write } from './engine';
import { NO_DATA, postOptions, removeOptions, removeRecords } from './routes';

/** A record that goes along with its parent (a week's lesson plans and day plans). */
export interface Dependent {
  kind: string;
  id: string | number;
  status: string;
}

/** What a live document holds newer than the stored content; `done` runs in the same write after the submit. */
export interface LiveContent {
  content: unknown;
  authors: string[];
  /** Which users' updates changed each content path (the history names them per field). */
  fieldAuthors?: Record<string, string[]>;
  done: () => Promise<void>;
}

/**
 * A family's lifecycle as its submit, review and remove paths see it: the records context
 * writes the paths once, the family says only what is its own.
 */
export interface LifecycleFamily {
  /** The legacy path prefix, e.g. `/api/week/week`. */
  base: string;
  tag: string;
  kind: string;
  /** Its data-scope resource (`RECORD_SCOPE_COLUMNS`). */
  resource: string;
  /** Its buttons: each path checks its own. */
  buttons: { submit: string; review: string; remove: string };
  /** Summaries (OpenAPI) of its paths. */
  summaries: { submit: string; review: string; remove: string; removeId: string };
  /** What a submit or review answers (the record as the family presents it). */
  answer: Record<number, z.ZodType>;
  /** Locks a record the caller may change now (scope and update rights), or throws; says whether they act as its team. */
  open: (c: CommandContext, id: string) => Promise<{ team: boolean }>;
  /** The records that go along with it: submitted, reviewed and deleted with it. */
  dependents?: (c: CommandContext, id: string) => Promise<Dependent[]>;
  /** A live document's newer content, submitted in place of the stored one. */
  liveContent?: (c: CommandContext, id: string, lang: Lang) => Promise<LiveContent | null>;
  /** After a change commits: the record's live editors are told. */
  changed?: (request: FastifyRequest, id: string) => Promise<void>;
  /** The record as the family's answer presents it. */
  detail: (request: FastifyRequest, id: string) => Promise<unknown>;
}

/**
 * A family's submit, review and remove as handlers (each in one write, the family's dependents
 * going along, its live editors told after the commit): `recordLifecycleRoutes` puts them
 * under the week's paths, a declared family (`defineRecordFamily`) under its table's.
 */
export function lifecycleHandlers(f: Omit<LifecycleFamily, 'base' | 'tag' | 'summaries' | 'answer'>) {
  const dependents = (c: CommandContext, id: string) => f.dependents?.(c, id) ?? Promise.resolve([]);

  const change = async (
    request: FastifyRequest,
    id: string,
    button: string,
    fn: (c: CommandContext) => Promise<void>,
  ) => {
    await write(request, async (c) => {
      requireButton(c.caller, button);
      await fn(c);
    });
    await f.changed?.(request, id);
    return f.detail(request, id);
  };

  /** Submits a record for review in `c`'s write (its dependents go along). */
  const submitIn = async (c: CommandContext, id: string, version: number | undefined) => {
    const { team } = await f.open(c, id);
    // A co-edited record is submitted as its live document reads now, naming whose edits it holds.
    const live = await f.liveContent?.(c, id, c.request.lang);
    const base = { type: 'SubmitRecord', actor: c.actor, at: c.at, team } as const;
    await runCommand(
      c,
      f.kind,
      id,
      live ? { ...base, content: live.content, authors: live.authors, fieldAuthors: live.fieldAuthors } : base,
      version,
    );
    await live?.done();
    for (const d of await dependents(c, id))
      if (isEditableStatus(d.status))
        await runCommand(c, d.kind, String(d.id), { ...base, team: true }, undefined, { quiet: true });
  };

  const submit = async (request: FastifyRequest, id: string, version?: number) =>
    ok(await change(request, id, f.buttons.submit, (c) => submitIn(c, id, version)), request.lang, 'records.submitted');

  const review = async (request: FastifyRequest, body: z.output<typeof ReviewRecordSchema>) => {
    const { id, action, comment } = body;
    const data = await change(request, id, f.buttons.review, async (c) => {
      await f.open(c, id);
      const type = action === 'approve' ? 'ApproveRecord' : 'ReturnRecord';
      const command = { type, actor: c.actor, at: c.at, comment } as const;
      await runCommand(c, f.kind, id, command);
      for (const d of await dependents(c, id))
        if (d.status === 'trial') await runCommand(c, d.kind, String(d.id), command, undefined, { quiet: true });
    });
    return ok(data, request.lang, action === 'approve' ? 'records.approved' : 'records.returned');
  };

  const remove = async (request: FastifyRequest, ids: string[]) => {
    await removeRecords(
      request,
      { button: f.buttons.remove, resource: f.resource, kind: f.kind, ids },
      async (c, id) => {
        const { team } = await f.open(c, id);
        const base = { type: 'DeleteRecord', actor: c.actor, at: c.at } as const;
        await runCommand(c, f.kind, id, { ...base, team });
        for (const d of await dependents(c, id))
          if (isEditableStatus(d.status))
            await runCommand(c, d.kind, String(d.id), { ...base, team: true }, undefined, { quiet: true });
      },
    );
    for (const id of ids) await f.changed?.(request, id);
    return ok(null, request.lang, 'records.deleted');
  };

  return { submit, submitIn, review, remove };
}

/**
 * Registers a family's `submit`, `review`, `remove` and `removeId` (spec §7): each in one
 * write, the family's dependents going along, its live editors told after the commit.
 */
export function recordLifecycleRoutes(app: FastifyInstance, f: LifecycleFamily) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const h = lifecycleHandlers(f);

  const act = <B extends z.ZodType>(path: 'submit' | 'review', body: B) =>
    postOptions({ tag: f.tag, summary: f.summaries[path], buttons: [f.buttons[path]], body, response: f.answer });

  r.post(`${f.base}/submit`, act('submit', SubmitRecordSchema), (request) =>
    h.submit(request, request.body.id, request.body.version),
  );

  r.post(`${f.base}/review`, act('review', ReviewRecordSchema), (request) => h.review(request, request.body));

  r.post(`${f.base}/remove`, removeOptions(f.tag, f.summaries.remove, f.buttons.remove), (request) =>
    h.remove(request, request.body.ids),
  );

  r.get(
    `${f.base}/removeId`,
    {
      config: { buttons: [f.buttons.remove] },
      schema: { tags: [f.tag], summary: f.summaries.removeId, querystring: IdParamSchema, response: NO_DATA },
    },
    (request) => h.remove(request, [request.query.id]),
  );
}
