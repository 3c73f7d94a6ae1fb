import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { inSystem } from '@sprout/core/db';
import { docxPart, docxParagraphs } from '@sprout/core/records';
import { localDate } from '@sprout/core/time';
import { bladeAuth } from '../../testing';
import { accessToken } from '../auth/fixtures';
import { useDemoConsole } from '../auth/console-fixture';

/**
 * The four observation families on PostgreSQL with the demo kindergarten: 小一班 (teacher1 +
 * teacher2, 小班组), 小二班 (leader, 小班组), 中一班 (teacher3, 中班组); the reviewer and the
 * principal see the whole school, the leader 小班组, a teacher her classes, the caregiver
 * 小一班 (read only). The platform administrator (tenant 000000) is the other tenant.
 */
const OBS = '/api/t_observation/observation';
const REG = '/api/observation_regional/observationregional';
const CRE = '/api/t_observation_creview/creview';
const HEA = '/api/t_hearken/hearken';
const today = localDate(new Date(), 'Asia/Shanghai');
const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

type Row = { id: string; status: string; className: string; title: string; excellent: boolean; collected: boolean };

describe('observation families: observations, regional observations, theme reviews, listening records', () => {
  const demo = useDemoConsole();
  const { call } = demo;
  const cls: Record<string, string> = {};
  const kids: Record<string, Array<{ id: string; name: string }>> = {};

  beforeAll(async () => {
    for (const account of ['reviewer', 'leader', 'teacher2', 'teacher3', 'caregiver'])
      demo.tokens[account] = await accessToken(demo.app, '100001', account, 'sprout123');
    demo.tokens.teacher1 = demo.tokens.teacher as string;
    await inSystem(demo.t.database, async (trx) => {
      for (const c of await trx.selectFrom('clazz').select(['id', 'name']).where('tenant_id', '=', '100001').execute())
        cls[c.name] = String(c.id);
      const students = await trx
        .selectFrom('student')
        .select(['id', 'name', 'class_id'])
        .where('tenant_id', '=', '100001')
        .orderBy('student_no')
        .execute();
      for (const [name, id] of Object.entries(cls))
        kids[name] = students.filter((s) => String(s.class_id) === id).map((s) => ({ id: String(s.id), name: s.name }));
    });
  });

  const list = async (who: string, method: 'GET' | 'POST', url: string, params = '') => {
    const r = await call(who, method, `${url}?size=200${params}`, method === 'POST' ? {} : undefined);
    expect(r.status, r.raw).toBe(200);
    return r.body.data.records as Row[];
  };
  const upload = async (who: string, bytes: Uint8Array, name: string, type: string) => {
    const boundary = `----ob${Math.random().toString(16).slice(2)}`;
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      Buffer.from(bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await demo.app.inject({
      method: 'POST',
      url: '/api/blade-resource/oss/endpoint/put-file',
      headers: {
        ...bladeAuth(demo.tokens[who] as string),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
    expect(r.statusCode, r.body).toBe(200);
    return String(r.json().data.attachId);
  };
  const png = () =>
    sharp({ create: { width: 8, height: 8, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();

  const play = (classId: string, over: Record<string, unknown> = {}) => ({
    type: 'play',
    title: '积木搭高楼',
    date: today,
    location: '建构区',
    classId,
    studentIds: (kids['小一班'] ?? []).slice(0, 2).map((k) => k.id),
    record: doc('两名幼儿合作搭建高楼'),
    goals: ['social-1-1', 'science-2-3'],
    gameName: '搭高楼',
    area: '建构区',
    ...over,
  });

  describe('demo data and dictionaries', () => {
    it('has records of every family in every state, naming demo children and goals', async () => {
      const statuses = (rows: Row[]) => [...new Set(rows.map((r) => r.status))].sort();
      expect(statuses(await list('reviewer', 'GET', `${REG}/list`))).toEqual(['draft', 'returned', 'success', 'trial']);
      const mine = await list('teacher1', 'POST', `${OBS}/alllistFor`);
      expect(statuses(mine)).toEqual(['draft', 'returned', 'success', 'trial']);
      expect(statuses(await list('teacher1', 'POST', `${HEA}/alllistFor`))).toEqual([
        'draft',
        'returned',
        'success',
        'trial',
      ]);
      expect(statuses(await list('teacher1', 'GET', `${CRE}/listById`))).toEqual([
        'draft',
        'returned',
        'success',
        'trial',
      ]);
      const excellent = await list('reviewer', 'POST', `${OBS}/ExcellentObservation`);
      expect(excellent).toHaveLength(1);
      const full = await call('reviewer', 'GET', `${OBS}/alllistForId?id=${excellent[0]?.id}`);
      const names = (kids['小一班'] ?? []).map((k) => k.id);
      expect(full.body.data.content.studentIds.every((id: string) => names.includes(id))).toBe(true);
      expect(full.body.data.content.goals).toEqual(['social-1-1', 'science-2-3']);
      expect(full.body.data.className).toBe('小一班');
    });

    it('answers the observation and listening-record types from business dictionaries, in both languages', async () => {
      const zh = await call('teacher1', 'GET', '/api/observation/type/getList');
      expect(zh.status, zh.raw).toBe(200);
      expect(zh.body.data.map((e: { dictKey: string; label: string }) => [e.dictKey, e.label])).toEqual([
        ['general', '一般观察'],
        ['play', '自主游戏'],
        ['sharing', '反思分享活动'],
      ]);
      const en = await call('teacher1', 'GET', '/api/hearken/type/getList', undefined, 'en');
      expect(en.body.data.map((e: { label: string }) => e.label)).toEqual(['Drawing', 'Language', 'Work', 'Play']);
    });
  });

  describe('an autonomous-play observation through its whole life', () => {
    it('is written, returned, fixed, approved, marked excellent, collected, found by a child’s name; its photo is kept', async () => {
      const photo = await upload('teacher1', await png(), '搭高楼.png', 'image/png');
      const created = await call('teacher1', 'POST', `${OBS}/update`, {
        content: play(cls['小一班'] as string, { photos: [photo] }),
      });
      expect(created.status, created.raw).toBe(200);
      expect(created.body.msg).toBe('已保存');
      const { id, version } = created.body.data as { id: string; version: number };
      expect(created.body.data).toMatchObject({ status: 'draft', kind: 'observation', className: '小一班' });

      // The photo is the record's: removing it is refused.
      const removePhoto = await call('admin', 'POST', `/api/blade-resource/attach/remove?ids=${photo}`);
      expect(removePhoto.status).toBe(400);
      expect(removePhoto.body.msg).toContain('积木搭高楼');

      const submitted = await call('teacher1', 'POST', `${OBS}/submit`, { id, version });
      expect(submitted.status, submitted.raw).toBe(200);
      expect(submitted.body.data.status).toBe('trial');
      expect((await call('teacher1', 'POST', `${OBS}/review`, { id, action: 'approve' })).status).toBe(403);
      const edit = await call('teacher1', 'POST', `${OBS}/update`, { id, content: play(cls['小一班'] as string) });
      expect(edit.status).toBe(409);
      expect(edit.body.msg).toBe('记录正在审核中，不能修改');

      // The grade leader's queue holds it; returning needs a comment.
      expect((await list('leader', 'POST', `${OBS}/alllistForTrial`)).map((r) => r.id)).toContain(id);
      expect((await list('teacher1', 'POST', `${OBS}/alllistForObservationTrial`)).map((r) => r.id)).toContain(id);
      const bare = await call('leader', 'POST', `${OBS}/review`, { id, action: 'return' }, 'en');
      expect(bare.body.msg).toBe('Please give a comment when returning a record');
      const returned = await call('leader', 'POST', `${OBS}/review`, {
        id,
        action: 'return',
        comment: '请写明支持策略',
      });
      expect(returned.body.data).toMatchObject({ status: 'returned', reviewComment: '请写明支持策略' });

      // Fixed and resubmitted in one call; approved; marked excellent.
      const fixed = await call('teacher1', 'POST', `${OBS}/submit`, {
        id,
        content: play(cls['小一班'] as string, { photos: [photo], strategies: doc('投放图纸') }),
      });
      expect(fixed.status, fixed.raw).toBe(200);
      expect(fixed.body.data.status).toBe('trial');
      expect(fixed.body.msg).toBe('已提交审核');
      const approved = await call('reviewer', 'POST', `${OBS}/review`, { id, action: 'approve' });
      expect(approved.body.data.status).toBe('success');
      expect((await list('teacher1', 'POST', `${OBS}/alllistForObservationTrialSuccess`)).map((r) => r.id)).toContain(
        id,
      );
      for (const url of ['successObservationList', 'alllistForTrialSuccess', 'successAutoObservationList'])
        expect((await list('reviewer', 'POST', `${OBS}/${url}`)).map((r) => r.id)).toContain(id);
      expect((await call('teacher1', 'POST', `${OBS}/addExcellent`, { id })).status).toBe(403);
      const marked = await call('reviewer', 'POST', `${OBS}/addExcellent`, { id });
      expect(marked.body.data.excellent).toBe(true);
      expect((await list('reviewer', 'POST', `${OBS}/ExcellentObservation`)).map((r) => r.id)).toContain(id);

      // teacher2 (same class) collects it; teacher3 (another class) may too: excellent is shared with the school.
      expect((await call('teacher3', 'POST', `${OBS}/Collection`, { id })).status).toBe(200);
      expect((await call('teacher3', 'POST', `${OBS}/cancelCollection`, { id })).status).toBe(200);
      const collected = await call('teacher2', 'POST', `${OBS}/Collection`, { id });
      expect(collected.body.data.collected).toBe(true);
      expect((await list('teacher2', 'POST', `${OBS}/collectionByUserId`)).map((r) => r.id)).toEqual([id]);
      await call('teacher2', 'POST', `${OBS}/cancelCollection`, { id });
      expect(await list('teacher2', 'POST', `${OBS}/collectionByUserId`)).toEqual([]);
      const unmarked = await call('reviewer', 'POST', `${OBS}/DelExcellentObservation`, { id });
      expect(unmarked.body.data.excellent).toBe(false);

      // Found by either child's name; not by another class's child.
      const first = (kids['小一班'] ?? [])[1]?.name as string;
      const found = await call(
        'teacher1',
        'POST',
        `${OBS}/listobservationByNickName?nickName=${encodeURIComponent(first)}`,
      );
      expect((found.body.data.records as Row[]).map((r) => r.id)).toContain(id);
      const other = (kids['中一班'] ?? [])[0]?.name as string;
      const none = await call('teacher1', 'POST', `${OBS}/listobservationByNickName`, { nickName: `${other}不存在` });
      expect(none.body.data.total).toBe(0);
      expect((await call('teacher1', 'POST', `${OBS}/listobservationByNickName`, {})).status).toBe(400);

      // The timeline; an approved record cannot be removed.
      const history = await call('teacher1', 'GET', `${OBS}/history?id=${id}`);
      expect(history.body.data.map((e: { type: string }) => e.type)).toEqual([
        'RecordCreated',
        'RecordSubmitted',
        'RecordReturned',
        'DraftUpdated',
        'RecordSubmitted',
        'RecordApproved',
        'RecordMarkedExcellent',
        'RecordCollected', // teacher3's
        'CollectionCancelled',
        'RecordCollected', // teacher2's
        'CollectionCancelled',
        'ExcellentMarkRemoved',
      ]);
      const gone = await call('teacher1', 'GET', `${OBS}/removeId?id=${id}`);
      expect(gone.status).toBe(409);
      expect(gone.body.msg).toBe('只能删除草稿或已退回的记录');
    });

    it('lists autonomous play by type, and searches a keyword in the title and play fields', async () => {
      for (const r of await list('reviewer', 'POST', `${OBS}/listAutoObservation`)) {
        const full = await call('reviewer', 'GET', `${OBS}/alllistForId?id=${r.id}`);
        expect(full.body.data.content.type).toBe('play');
      }
      const trialPlay = await list('reviewer', 'POST', `${OBS}/trialAutoObservationList`);
      expect(trialPlay.every((r) => r.status === 'trial')).toBe(true);
      expect((await list('reviewer', 'POST', `${OBS}/trialObservationList`)).every((r) => r.status === 'trial')).toBe(
        true,
      );
      const hit = await list(
        'reviewer',
        'POST',
        `${OBS}/listAutoObservation`,
        `&keyword=${encodeURIComponent('搭高')}`,
      );
      expect(hit.length).toBeGreaterThan(0);
      expect(await list('reviewer', 'POST', `${OBS}/listAutoObservation`, '&keyword=zzz')).toEqual([]);
    });
  });

  describe('bad input: a clear message in both languages, nothing saved', () => {
    const refuse = async (content: object, status: number, zh: string, en: string, who = 'teacher1') => {
      const before = (await call(who, 'POST', `${OBS}/alllistFor`, {})).body.data?.total;
      const a = await call(who, 'POST', `${OBS}/update`, { content });
      expect(a.status, a.raw).toBe(status);
      expect(a.body.msg).toBe(zh);
      const b = await call(who, 'POST', `${OBS}/submit`, { content }, 'en');
      expect(b.status).toBe(status);
      expect(b.body.msg).toBe(en);
      expect((await call(who, 'POST', `${OBS}/alllistFor`, {})).body.data?.total).toBe(before);
    };

    it('refuses a child of another class or tenant', async () => {
      const c = cls['小一班'] as string;
      const stranger = (kids['中一班'] ?? [])[0]?.id as string;
      await refuse(
        play(c, { studentIds: [stranger] }),
        400,
        '所选幼儿不在该班级',
        'A chosen child is not in this class',
      );
      await refuse(
        play(c, { studentIds: ['999999999'] }),
        400,
        '所选幼儿不在该班级',
        'A chosen child is not in this class',
      );
    });

    it('refuses an unknown goal, a photo that is not a picture, a photo that does not exist', async () => {
      const c = cls['小一班'] as string;
      await refuse(
        play(c, { goals: ['health-3-4'] }),
        400,
        '《指南》中没有这个目标',
        'The Guidelines have no such goal',
      );
      const pdf = await upload(
        'teacher1',
        Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
        'a.pdf',
        'application/pdf',
      );
      await refuse(
        play(c, { photos: [pdf] }),
        400,
        '只能添加图片（jpg、png、webp、heic）',
        'Only pictures can be added (jpg, png, webp, heic)',
      );
      await refuse(
        play(c, { photos: ['123456789'] }),
        400,
        '照片或附件不存在，请重新上传',
        'A photo or attachment does not exist; please upload it again',
      );
    });

    it('refuses a class outside the write scope, an unknown class, and bad fields by name', async () => {
      await refuse(
        play(cls['中一班'] as string, { studentIds: [] }),
        403,
        '您不能为该班级编写记录',
        'You cannot write records for this class',
      );
      await refuse(play('987654321', { studentIds: [] }), 400, '班级不存在', 'The class does not exist');
      const bad = await call('teacher1', 'POST', `${OBS}/update`, {
        content: { ...play(cls['小一班'] as string), type: 'x', title: '' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['content.title', 'content.type']);
      expect(bad.body.msg).toContain('请填写标题');
    });
  });

  describe('data scope and tenants', () => {
    const LISTS: Array<['GET' | 'POST', string]> = [
      ['POST', `${OBS}/alllistFor`],
      ['POST', `${OBS}/alllistForObservationTrial`],
      ['POST', `${OBS}/alllistForObservationTrialSuccess`],
      ['POST', `${OBS}/alllistForTrialSuccess`],
      ['POST', `${OBS}/trialObservationList`],
      ['POST', `${OBS}/successObservationList`],
      ['POST', `${OBS}/listAutoObservation`],
      ['POST', `${OBS}/trialAutoObservationList`],
      ['POST', `${OBS}/successAutoObservationList`],
      ['POST', `${OBS}/ExcellentObservation`],
      ['POST', `${OBS}/collectionByUserId`],
      ['GET', `${REG}/list`],
      ['GET', `${REG}/listById`],
      ['POST', `${REG}/successObservationRegionalList`],
      ['GET', `${CRE}/listById`],
      ['POST', `${CRE}/successObservationCreviewList`],
      ['POST', `${HEA}/alllistFor`],
      ['POST', `${HEA}/successHearkenList`],
    ];
    // Excellent records are published to the whole kindergarten (docs/API.md "Who sees what").
    const SHARED = [`${OBS}/ExcellentObservation`, `${OBS}/collectionByUserId`];
    it('a teacher sees her class’s records in every list, another teacher hers (and the school’s excellent ones)', async () => {
      const mayList = (url: string, r: Row, own: string) =>
        r.className === own || (SHARED.includes(url) && r.excellent);
      for (const [method, url] of LISTS) {
        for (const r of await list('teacher1', method, url)) expect(mayList(url, r, '小一班'), url).toBe(true);
        for (const r of await list('teacher3', method, url)) expect(mayList(url, r, '中一班'), url).toBe(true);
      }
      // The demo's excellent observation of 小一班 is in 中一班's teacher's excellent list too.
      expect((await list('teacher3', 'POST', `${OBS}/ExcellentObservation`)).map((r) => r.className)).toContain(
        '小一班',
      );
      // teacher2 co-teaches 小一班: she sees what teacher1 wrote.
      expect((await list('teacher2', 'GET', `${REG}/list`)).length).toBe(
        (await list('teacher1', 'GET', `${REG}/list`)).length,
      );
      expect((await list('teacher3', 'GET', `${REG}/list`)).length).toBeGreaterThan(0);
    });

    it('a grade leader reviews her grade’s trial records; teachers have no review queue', async () => {
      for (const url of [
        `${OBS}/alllistForTrial`,
        `${REG}/trialObservationRegionalList`,
        `${CRE}/trialObservationCreviewList`,
        `${HEA}/trialHearkenList`,
      ]) {
        const rows = await list('leader', 'POST', url);
        expect(rows.length, url).toBeGreaterThan(0);
        for (const r of rows) {
          expect(['小一班', '小二班']).toContain(r.className);
          expect(r.status).toBe('trial');
        }
        expect(
          (await list('reviewer', 'POST', url)).some((r) => r.className === '中一班'),
          url,
        ).toBe(true);
        expect((await call('teacher1', 'POST', url, {})).status).toBe(403);
      }
    });

    it('a caregiver reads her class’s records but cannot write', async () => {
      const rows = await list('caregiver', 'GET', `${REG}/list`);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(r.className).toBe('小一班');
      expect((await call('caregiver', 'GET', `${REG}/detail?id=${rows[0]?.id}`)).status).toBe(200);
      expect(
        (await call('caregiver', 'POST', `${OBS}/update`, { content: play(cls['小一班'] as string) })).status,
      ).toBe(403);
      const draft = rows.find((r) => r.status === 'draft') as Row;
      expect((await call('caregiver', 'POST', `${REG}/remove?ids=${draft.id}`)).status).toBe(403);
      expect((await call('caregiver', 'POST', `${REG}/submit`, { id: draft.id })).status).toBe(403);
    });

    it('another tenant neither lists, reads, changes nor writes into the kindergarten’s records', async () => {
      const [mine] = await list('teacher1', 'POST', `${HEA}/alllistFor`);
      const id = (mine as Row).id;
      expect((await call('platform', 'GET', `${HEA}/allListForId?id=${id}`)).status).toBe(404);
      expect((await call('platform', 'GET', `${HEA}/history?id=${id}`)).status).toBe(404);
      expect((await call('platform', 'POST', `${HEA}/alllistFor`, {})).body.data.total).toBe(0);
      expect((await call('platform', 'POST', `${HEA}/successHearkenList`, {})).body.data.total).toBe(0);
      expect((await call('platform', 'POST', `${HEA}/review`, { id, action: 'approve' })).status).toBe(404);
      expect((await call('platform', 'GET', `${HEA}/removeId?id=${id}`)).status).toBe(400);
      const into = await call('platform', 'POST', `${OBS}/update`, {
        content: play(cls['小一班'] as string, { studentIds: [] }),
      });
      expect(into.status).toBe(400);
      expect(into.body.msg).toBe('班级不存在');
      expect((await call('teacher1', 'GET', `${HEA}/allListForId?id=${id}`)).status).toBe(200);
    });
  });

  describe('regional observations, theme reviews and listening records: every call', () => {
    it('regional: update, detail, ForRegionalId, submit, review, lists, remove', async () => {
      const content = {
        title: '美工区：秋叶拼贴',
        date: today,
        classId: cls['小一班'],
        area: 'art',
        studentIds: (kids['小一班'] ?? []).slice(3, 5).map((k) => k.id),
        materials: '落叶、胶水',
        goals: ['art-2-1'],
      };
      const saved = await call('teacher1', 'POST', `${REG}/update`, { content });
      expect(saved.status, saved.raw).toBe(200);
      const id = saved.body.data.id as string;
      expect((await call('teacher1', 'GET', `${REG}/detail?id=${id}`)).body.data.content.area).toBe('art');
      expect((await call('teacher1', 'GET', `${REG}/ForRegionalId?id=${id}`)).body.data.title).toBe('美工区：秋叶拼贴');
      expect((await list('teacher1', 'GET', `${REG}/list`, '&area=art')).map((r) => r.id)).toContain(id);
      expect((await list('teacher1', 'GET', `${REG}/list`, '&area=reading')).map((r) => r.id)).not.toContain(id);
      expect((await list('teacher1', 'GET', `${REG}/listById`)).map((r) => r.id)).toContain(id);
      expect((await call('teacher1', 'POST', `${REG}/submit`, { id })).body.data.status).toBe('trial');
      expect((await list('leader', 'POST', `${REG}/trialObservationRegionalList`)).map((r) => r.id)).toContain(id);
      expect((await call('leader', 'POST', `${REG}/review`, { id, action: 'approve' })).body.data.status).toBe(
        'success',
      );
      expect((await list('teacher1', 'POST', `${REG}/successObservationRegionalList`)).map((r) => r.id)).toContain(id);
      expect((await call('teacher1', 'POST', `${REG}/remove?ids=${id}`)).status).toBe(409);
      const draft = await call('teacher1', 'POST', `${REG}/update`, { content: { ...content, area: 'reading' } });
      const removed = await call('teacher1', 'POST', `${REG}/remove`, { ids: draft.body.data.id });
      expect(removed.status, removed.raw).toBe(200);
      expect((await call('teacher1', 'GET', `${REG}/detail?id=${draft.body.data.id}`)).status).toBe(404);
      const wrong = await call('teacher1', 'POST', `${REG}/update`, { content: { ...content, area: 'garden' } }, 'en');
      expect(wrong.body.fields).toEqual([{ field: 'content.area', message: 'Please choose the activity area' }]);
    });

    it('theme review: update, detail, ForCreviewId, submit, review with return, lists, remove', async () => {
      const content = {
        themeName: '有趣的影子',
        classId: cls['小一班'],
        stage: 'pre',
        date: today,
        content: doc('讨论主题网络'),
      };
      const saved = await call('teacher1', 'POST', `${CRE}/update`, { content });
      expect(saved.status, saved.raw).toBe(200);
      const id = saved.body.data.id as string;
      expect((await call('teacher2', 'GET', `${CRE}/detail?id=${id}`)).body.data.title).toBe('有趣的影子');
      expect((await call('teacher1', 'GET', `${CRE}/ForCreviewId?id=${id}`)).body.data.content.stage).toBe('pre');
      expect((await call('teacher3', 'GET', `${CRE}/detail?id=${id}`)).status).toBe(404);
      expect((await list('teacher1', 'GET', `${CRE}/listById`)).map((r) => r.id)).toContain(id);
      expect((await call('teacher1', 'POST', `${CRE}/submit`, { id })).body.data.status).toBe('trial');
      expect((await call('teacher2', 'POST', `${CRE}/review`, { id, action: 'approve' })).status).toBe(403);
      expect((await list('leader', 'POST', `${CRE}/trialObservationCreviewList`)).map((r) => r.id)).toContain(id);
      const back = await call('leader', 'POST', `${CRE}/review`, { id, action: 'return', comment: '补充幼儿经验' });
      expect(back.body.data).toMatchObject({ status: 'returned', reviewComment: '补充幼儿经验' });
      // A co-teacher of the class may fix and delete the team's returned record.
      expect((await call('teacher2', 'POST', `${CRE}/remove`, { ids: id })).status).toBe(200);
      expect((await call('teacher1', 'GET', `${CRE}/detail?id=${id}`)).status).toBe(404);
      const missing = await call('teacher1', 'POST', `${CRE}/update`, { content: { ...content, themeName: '' } }, 'en');
      expect(missing.body.fields).toEqual([{ field: 'content.themeName', message: 'please enter a theme' }]);
      expect((await list('reviewer', 'POST', `${CRE}/successObservationCreviewList`)).length).toBeGreaterThan(0);
    });

    it('listening record: update, allListForId, submit, review, lists, by a child’s name, removeId', async () => {
      const child = (kids['中一班'] ?? [])[4] as { id: string; name: string };
      const content = {
        studentId: child.id,
        classId: cls['中一班'],
        date: today,
        type: 'language',
        childWords: '我长大要当宇航员',
        goals: ['language-1-3'],
      };
      const saved = await call('teacher3', 'POST', `${HEA}/update`, { content });
      expect(saved.status, saved.raw).toBe(200);
      const id = saved.body.data.id as string;
      expect(saved.body.data.title).toBe(`${today} 倾听记录`);
      expect((await call('teacher3', 'GET', `${HEA}/allListForId?id=${id}`)).body.data.content.childWords).toBe(
        '我长大要当宇航员',
      );
      const byName = await call('teacher3', 'POST', `${HEA}/listHearkenByNickName`, {
        nickName: child.name,
        size: 100,
      });
      expect((byName.body.data.records as Row[]).map((r) => r.id)).toContain(id);
      const other = (kids['中一班'] ?? [])[5]?.id as string;
      expect(
        (await list('teacher3', 'POST', `${HEA}/alllistFor`, `&studentId=${other}`)).map((r) => r.id),
      ).not.toContain(id);
      expect((await call('teacher3', 'POST', `${HEA}/submit`, { id })).body.data.status).toBe('trial');
      expect((await list('leader', 'POST', `${HEA}/trialHearkenList`)).map((r) => r.id)).not.toContain(id);
      expect((await call('leader', 'POST', `${HEA}/review`, { id, action: 'approve' })).status).toBe(404);
      expect((await call('reviewer', 'POST', `${HEA}/review`, { id, action: 'approve' })).body.data.status).toBe(
        'success',
      );
      expect((await list('teacher3', 'POST', `${HEA}/successHearkenList`)).map((r) => r.id)).toContain(id);
      const draft = await call('teacher3', 'POST', `${HEA}/update`, { content });
      expect((await call('teacher3', 'GET', `${HEA}/removeId?id=${draft.body.data.id}`)).status).toBe(200);
      const wrongChild = await call('teacher3', 'POST', `${HEA}/update`, {
        content: { ...content, studentId: (kids['小一班'] ?? [])[0]?.id },
      });
      expect(wrongChild.status).toBe(400);
      expect(wrongChild.body.msg).toBe('所选幼儿不在该班级');
    });

    it('exports an observation as Word with its children and photo, also as a link valid for its maker only', async () => {
      const photo = await upload('teacher1', await png(), '照片.png', 'image/png');
      const [a, b] = (kids['小一班'] ?? []).slice(6, 8) as [{ id: string; name: string }, { id: string; name: string }];
      const saved = await call('teacher1', 'POST', `${OBS}/update`, {
        content: play(cls['小一班'] as string, {
          title: '沙水区：小小工程师',
          studentIds: [a.id, b.id],
          photos: [photo],
          analysis: doc('幼儿尝试用管道引水'),
        }),
      });
      const id = saved.body.data.id as string;
      const file = await demo.app.inject({
        method: 'GET',
        url: `${OBS}/exportForId?id=${id}`,
        headers: bladeAuth(demo.tokens.teacher1 as string),
      });
      expect(file.statusCode, file.body.slice(0, 200)).toBe(200);
      expect(file.headers['content-type']).toContain('wordprocessingml');
      const bytes = file.rawPayload;
      const text = docxParagraphs(bytes).join('\n');
      for (const expected of [
        '沙水区：小小工程师',
        '小一班',
        a.name,
        b.name,
        '分析与评价',
        '幼儿尝试用管道引水',
        '照片',
      ])
        expect(text).toContain(expected);
      expect(Object.keys(unzipSync(bytes)).some((n) => n.startsWith('word/media/'))).toBe(true);
      expect(docxPart(bytes, 'word/document.xml')).toContain('<pic:pic');

      const link = await call('teacher1', 'GET', `${OBS}/exportObservationUrlForId?id=${id}`);
      expect(link.status, link.raw).toBe(200);
      expect(link.body.data).toMatchObject({ fileName: '沙水区：小小工程师.docx', expiresIn: 600 });
      const url = link.body.data.url as string;
      const again = await demo.app.inject({ method: 'GET', url, headers: bladeAuth(demo.tokens.teacher1 as string) });
      expect(again.statusCode).toBe(200);
      expect(docxParagraphs(again.rawPayload).join('\n')).toContain(a.name);
      const other = await demo.app.inject({ method: 'GET', url, headers: bladeAuth(demo.tokens.teacher2 as string) });
      expect(other.statusCode).toBe(404);
      expect((await call('teacher3', 'GET', `${OBS}/exportObservationForId?id=${id}`)).status).toBe(404);
      expect((await call('platform', 'GET', `${OBS}/exportForId?id=${id}`)).status).toBe(404);
    });

    it('exports a regional observation, a theme review and a listening record with their own sections, in English too', async () => {
      const cases: Array<[string, string, string[]]> = [
        [REG, 'GET list', ['Materials']],
        [CRE, 'GET listById', ['Discussion']],
        [HEA, 'POST alllistFor', ['What the child said', 'Interpretation']],
      ];
      for (const [base, listCall, labels] of cases) {
        const [method, name] = listCall.split(' ') as ['GET' | 'POST', string];
        const [row] = await list('teacher1', method, `${base}/${name}`);
        const file = await demo.app.inject({
          method: 'GET',
          url: `${base}/exportForId?id=${(row as Row).id}`,
          headers: { ...bladeAuth(demo.tokens.teacher1 as string), 'accept-language': 'en' },
        });
        expect(file.statusCode, base).toBe(200);
        const text = docxParagraphs(file.rawPayload);
        expect(text).toEqual(expect.arrayContaining(['Class', '小一班', (row as Row).title, ...labels]));
      }
    });
  });
});
