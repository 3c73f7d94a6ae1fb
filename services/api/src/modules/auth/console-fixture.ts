import { afterAll, beforeAll, expect } from 'vitest';
import { seed } from '@sprout/core/seed';
import { createTestDatabase, type TestDatabase } from '@sprout/core/testing/pg';
import { bladeAuth, type FastifyInstance, testApp, testConfig } from '../../testing';
import { accessToken } from './fixtures';

/** Who the console tests sign in as: the platform's administrator and the demo kindergarten's people. */
export const CONSOLE_PEOPLE = {
  platform: ['000000', 'admin', 'admin'],
  admin: ['100001', 'admin', 'sprout123'],
  principal: ['100001', 'principal', 'sprout123'],
  teacher: ['100001', 'teacher1', 'sprout123'],
} as const satisfies Record<string, readonly [string, string, string]>;

export type ConsolePerson = keyof typeof CONSOLE_PEOPLE;

/** A call's answer as the console tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
export type ConsoleReply = { status: number; body: any; raw: string };

/**
 * What a console family's test file shares: the demo kindergarten seeded on its own
 * PostgreSQL database, one app, a token per person, and `call` as one of them. Use it in the
 * file's outer describe: the database is made before the file's tests and dropped after.
 */
export function useDemoConsole() {
  const demo = {
    t: undefined as unknown as TestDatabase,
    app: undefined as unknown as FastifyInstance,
    tokens: {} as Record<ConsolePerson | (string & {}), string>,
    /** One request as `who`, in `lang` (zh-CN unless said). */
    call: async (
      who: ConsolePerson | (string & {}),
      method: 'GET' | 'POST',
      url: string,
      payload?: object,
      lang = 'zh-CN',
    ): Promise<ConsoleReply> => {
      const r = await demo.app.inject({
        method,
        url,
        headers: { ...bladeAuth(demo.tokens[who] as string), 'accept-language': lang },
        ...(payload ? { payload } : {}),
      });
      return { status: r.statusCode, body: r.json(), raw: r.body };
    },
    /** A POST as `who` that must be refused with a 400: the fields it names, with their messages. */
    refused: async (who: ConsolePerson | (string & {}), url: string, payload: object, lang = 'zh-CN') => {
      const r = await demo.call(who, 'POST', url, payload, lang);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body.fields as { field: string; message: string }[];
    },
  };
  beforeAll(async () => {
    demo.t = await createTestDatabase();
    await seed(demo.t.database, { demo: true });
    ({ app: demo.app } = await testApp(demo.t.database, { config: testConfig() }));
    for (const [who, [tenant, account, password]] of Object.entries(CONSOLE_PEOPLE))
      demo.tokens[who] = await accessToken(demo.app, tenant, account, password);
  });
  afterAll(async () => {
    await demo.app?.close();
    await demo.t?.drop();
  });
  return demo;
}
