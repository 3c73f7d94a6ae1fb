/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '../../services/core/src/db';
import { nextId } from '../../services/core/src/ids';
import { DEMO_PASSWORD } from '../../services/core/src/permissions/demo';
import { seed } from '../../services/core/src/seed';
import { createTestDatabase, type TestDatabase } from '../../services/core/src/testing/pg';
import { bladeAuth, testConfig, tokenFor } from '../../services/api/src/testing';
import sharp from 'sharp';
import { type E2E, shot, signIn, startE2E, waitForMenu, watchErrors } from './support/app';
import { openMenu, rowWith, setLanguage } from './support/crud';

const T = '100001';
const teacher1 = { tenant: T, account: 'teacher1', password: DEMO_PASSWORD };

/** Today in Shanghai, as the server dates the semester. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());

/**
 * The per-child page (issue 18): from the children screen a teacher opens a child's
 * observations — name and class, the domain chart, the goals not yet observed and the
 * records naming the child, newest first — in Chinese and in English; and the home page shows
 * the observation figures. The server runs on PostgreSQL so the test can place the records
 * the observation families would have written into their read model.
 */
describe('guide: the per-child page and the home page’s observation figures', () => {
  let e2e: E2E;
  let db: TestDatabase;
  let page: Page;
  let errors: string[];
  let child = { id: '', name: '' };

  beforeAll(async () => {
    db = await createTestDatabase();
    await seed(db.database, { demo: true });
    const JWT_SECRET = 'guide-e2e-secret-0123456789abcdef0123456789';
    e2e = await startE2E({ DATABASE_URL: db.url, JWT_SECRET });
    /** A photo teacher1 uploads through put-file (the upload endpoint the families use): its attachment id. */
    const upload = async (userId: string, colour: string) => {
      const png = await sharp({ create: { width: 480, height: 360, channels: 3, background: colour } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `${colour.slice(1)}.png`);
      const token = tokenFor(testConfig({ JWT_SECRET }), { tenant_id: T, user_id: userId });
      const r = await fetch(`${e2e.server.url}/api/blade-resource/oss/endpoint/put-file`, {
        method: 'POST',
        headers: bladeAuth(token),
        body: form,
      });
      const body = (await r.json()) as { data: { attachId: string } };
      expect(r.status, JSON.stringify(body)).toBe(200);
      return String(body.data.attachId);
    };
    await inSystem(db.database, async (trx) => {
      // The demo's own observations out of the read model: the page shows only what this test places.
      await trx
        .deleteFrom('record_list')
        .where('tenant_id', '=', T)
        .where('kind', 'in', ['observation', 'observation_regional', 'creview', 'hearken'])
        .execute();
      const teacher = await trx
        .selectFrom('app_user')
        .select(['id', 'real_name'])
        .where('tenant_id', '=', T)
        .where('account', '=', 'teacher1')
        .executeTakeFirstOrThrow();
      const cls = await trx
        .selectFrom('clazz')
        .select('id')
        .where('tenant_id', '=', T)
        .where('name', '=', '小一班')
        .executeTakeFirstOrThrow();
      const kids = await trx
        .selectFrom('student')
        .select(['id', 'name'])
        .where('tenant_id', '=', T)
        .where('class_id', '=', cls.id)
        .orderBy('student_no')
        .limit(2)
        .execute();
      const [a, b] = kids as [{ id: string; name: string }, { id: string; name: string }];
      child = { id: String(a.id), name: a.name };
      const me = String(teacher.id);
      const rows = [
        {
          kind: 'observation',
          title: '搭建高塔',
          students: [a.id, b.id],
          goals: ['health-2-3', 'science-2-3'],
          photos: [await upload(me, '#5aabff'), await upload(me, '#ffb347')],
        },
        {
          kind: 'observation_regional',
          title: '美工区：彩泥小动物',
          students: [a.id],
          goals: ['art-2-1', 'health-2-3'],
          photos: [],
        },
        {
          kind: 'hearken',
          title: '我画的彩虹',
          students: [a.id],
          goals: ['language-1-2', 'art-1-1'],
          photos: [await upload(me, '#7ac95a')],
        },
      ];
      for (const [i, r] of rows.entries()) {
        const content =
          r.kind === 'hearken'
            ? {
                studentId: String(a.id),
                classId: String(cls.id),
                date: today(),
                title: r.title,
                goals: r.goals,
                childWork: r.photos,
              }
            : {
                classId: String(cls.id),
                date: today(),
                title: r.title,
                studentIds: r.students.map(String),
                goals: r.goals,
                photos: r.photos,
              };
        await trx
          .insertInto('record_list')
          .values({
            tenant_id: T,
            id: nextId(),
            kind: r.kind,
            status: 'success',
            title: r.title,
            author_id: teacher.id,
            author_name: teacher.real_name ?? 'teacher1',
            class_id: cls.id,
            create_time: new Date(Date.now() - (rows.length - i) * 60_000),
            update_time: new Date(),
            content: JSON.stringify(content),
            version: 1,
          } as never)
          .execute();
      }
    });
    page = await (await e2e.context()).newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await e2e?.close();
    await db?.drop();
  });

  it('the home page shows observations per class and teacher and the domains each class reached', async () => {
    await signIn(page, teacher1);
    await waitForMenu(page);
    const panel = page.getByTestId('guide-dashboard');
    await panel.waitFor();
    await expect.poll(() => page.getByTestId('guide-dashboard-classes').textContent()).toContain('小一班');
    expect(await page.getByTestId('guide-dashboard-coverage').textContent()).toContain('1/9');
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'guide-dashboard-zh');
  });

  it('a teacher opens a child’s observations from the children screen, in Chinese and in English', async () => {
    await openMenu(page, 'student', '/student/student/index', 'children-page', 'class_center');
    const row = rowWith(page, child.name).first();
    await row.getByTestId('child-row-observations').click();
    await page.waitForURL(`**/guide/child/${child.id}`);
    const view = page.getByTestId('guide-child-page');
    await view.waitFor();
    expect(await view.textContent()).toContain(`${child.name}的成长观察`);
    expect(await view.textContent()).toContain('班级：小一班');
    // The records naming the child, newest first.
    await expect.poll(() => page.getByTestId('guide-record').count()).toBe(3);
    const first = await page.getByTestId('guide-record').first().textContent();
    expect(first).toContain('我画的彩虹');
    expect(first).toContain('倾听记录');
    // The goals it shows evidence for, by their titles.
    expect(first).toContain('愿意讲话并能清楚地表达');
    // Each record's photos as thumbnails: the listening record's child's work, the observation's two.
    const thumbs = (i: number) => page.getByTestId('guide-record').nth(i).locator('img');
    expect(await thumbs(0).count()).toBe(1);
    expect(await thumbs(2).count()).toBe(2);
    await expect
      .poll(() =>
        thumbs(2)
          .first()
          .evaluate((img) => (img as HTMLImageElement).naturalWidth),
      )
      .toBeGreaterThan(0);
    // The gaps: 32 goals less the 5 observed.
    const gaps = page.getByTestId('guide-gaps').locator('[data-goal]');
    expect(await gaps.count()).toBe(27);
    expect(await page.getByTestId('guide-gaps').textContent()).toContain('具有健康的体态');
    expect(await page.getByTestId('guide-gaps').textContent()).not.toContain('手的动作灵活协调');
    await page.getByTestId('guide-domain-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await shot(page, 'guide-child-zh');
    await page.getByTestId('guide-timeline').scrollIntoViewIfNeeded();
    await shot(page, 'guide-child-timeline-zh');
    await page.getByTestId('guide-child-page').scrollIntoViewIfNeeded();

    await setLanguage(page, 'en');
    await expect.poll(() => view.textContent()).toContain(`Observations of ${child.name}`);
    await expect
      .poll(() => page.getByTestId('guide-gaps').textContent())
      .toContain('Has a healthy physique and posture');
    expect(await page.getByTestId('guide-record').first().textContent()).toContain('Listening record');
    await page.getByTestId('guide-domain-chart').locator('.recharts-bar-rectangle').first().waitFor();
    await shot(page, 'guide-child-en');
    await page.getByTestId('guide-timeline').scrollIntoViewIfNeeded();
    await shot(page, 'guide-child-timeline-en');
    expect(errors).toEqual([]);
  });
});
