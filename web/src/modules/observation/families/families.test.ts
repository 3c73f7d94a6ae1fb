import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pathOf, type RecordFamily, toContent } from '../../../kit/records/define';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { creviewFamily, creviewTyFamily } from './creview';
import { hearkenFamily } from './hearken';
import { observationFamily } from './observation';
import { regionalFamily } from './regional';

/** Spec §7's calls per family (the paths hA's server serves); review and history are Sprout's own. */
const SPEC: Record<string, string[]> = {
  '/t_observation/observation': [
    'POST submit',
    'POST update',
    'POST alllistFor',
    'POST alllistForTrial',
    'POST alllistForTrialSuccess',
    'POST ExcellentObservation',
    'POST addExcellent',
    'POST DelExcellentObservation',
    'POST Collection',
    'POST cancelCollection',
    'POST collectionByUserId',
    'GET alllistForId',
    'GET removeId',
    'GET exportObservationUrlForId',
    'POST listobservationByNickName',
  ],
  '/observation_regional/observationregional': [
    'GET listById',
    'GET detail',
    'POST remove',
    'POST submit',
    'POST update',
    'POST trialObservationRegionalList',
    'POST successObservationRegionalList',
  ],
  '/t_observation_creview/creview': [
    'GET listById',
    'GET detail',
    'POST remove',
    'POST submit',
    'POST update',
    'POST trialObservationCreviewList',
    'POST successObservationCreviewList',
  ],
  '/t_hearken/hearken': [
    'POST submit',
    'POST update',
    'POST alllistFor',
    'POST trialHearkenList',
    'POST successHearkenList',
    'GET allListForId',
    'GET removeId',
  ],
};
/** Sprout's own: the review, the history and the zip of many as a job (as for weeks). */
const OWN = ['POST review', 'GET history', 'GET exportAllForId', 'GET exportProgress', 'GET exportZipDownload'];

const FAMILIES: RecordFamily[] = [observationFamily, regionalFamily, creviewFamily, creviewTyFamily, hearkenFamily];

/** The value of a dotted i18n key in a catalogue. */
const lookup = (catalogue: unknown, key: string) =>
  key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], catalogue);

describe('the four families as data', () => {
  it.each(FAMILIES.map((f) => [f.route, f] as const))(
    '%s calls only paths spec §7 lists (or Sprout’s review and history)',
    (_, family) => {
      const allowed = [...(SPEC[family.base] ?? []), ...OWN];
      for (const op of Object.keys(family.paths) as (keyof typeof family.paths)[]) {
        const path = pathOf(family, op);
        expect(allowed, `${family.kind} ${op}`).toContain(`${path?.method} ${path?.url.slice(family.base.length + 1)}`);
      }
    },
  );

  it('names every label in both languages', () => {
    const keys = new Set<string>();
    for (const family of FAMILIES) {
      keys.add(family.name);
      for (const c of family.columns) keys.add(c.label);
      for (const s of family.form) {
        keys.add(s.title);
        for (const field of s.fields) {
          keys.add(field.label);
          for (const o of field.options ?? []) keys.add(o.label);
          for (const c of field.columns ?? []) keys.add(c.label);
        }
      }
    }
    for (const key of keys) {
      if (!key.startsWith('observation.')) continue;
      const rest = key.slice('observation.'.length);
      expect(typeof lookup(zhCN, rest), key).toBe('string');
      expect(typeof lookup(en, rest), key).toBe('string');
    }
  });

  it('sends an autonomous-play observation with its play fields, a general one without them', () => {
    const values = {
      type: 'play',
      title: '搭高楼',
      gameName: '建构游戏',
      area: '建构区',
      studentIds: ['1', '2'],
      goals: ['health-2-3', 'science-2-3'],
    };
    expect(toContent(observationFamily, values)).toMatchObject({
      gameName: '建构游戏',
      area: '建构区',
      goals: ['health-2-3', 'science-2-3'],
    });
    expect(toContent(observationFamily, { ...values, type: 'general' })).toMatchObject({ gameName: '', area: '' });
  });

  it('lays the second creview layout out with the per-domain tables, the first without', () => {
    expect(creviewTyFamily.fields.get('domainTables')?.kind).toBe('perDomain');
    expect(creviewFamily.fields.has('domainTables')).toBe(false);
    expect(creviewTyFamily.route).toBe('/creview/creviewDetailsTy');
  });

  it('keeps the regional family’s page definition under 120 lines', () => {
    const lines = readFileSync(new URL('./regional.ts', import.meta.url), 'utf8')
      .trimEnd()
      .split('\n').length;
    expect(lines).toBeLessThan(120);
  });
});
