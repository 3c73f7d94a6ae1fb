import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { type Database, inSystem } from '@sprout/core/db';
import { nextId } from '@sprout/core/ids';
import { wrapProviderSecret } from '@sprout/core/keys';

export const OIDC_CLIENT = { id: 'sprout-test', secret: 'sprout-oidc-test-secret' } as const;
export const REDIRECT_URI = 'http://127.0.0.1/sprout/login/callback';

export interface TestOidc {
  issuer: string;
  /** Follows the browser's path from an authorization URL: signs in as `accountId`, returns the code and state. */
  authorize(authorizationUrl: string, accountId: string): Promise<{ code: string; state: string }>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 with one confidential client.
 * The interaction step (the provider's login page) is answered in code: whoever
 * `authorize` names signs in, and consent is taken as given.
 */
export async function startOidcProvider(accounts: Record<string, Record<string, unknown>>): Promise<TestOidc> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let login: string | undefined;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    async findAccount(_ctx, id) {
      const claims = accounts[id];
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'picture'],
      email: ['email'],
      phone: ['phone_number'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Consent is implied: every signed-in account grants the client what it asks for.
    async loadExistingGrant(ctx) {
      const accountId = ctx.oidc.session?.accountId;
      const client = ctx.oidc.client;
      if (!accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
      grant.addOIDCScope('openid profile email phone');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['sprout-test-cookie-key-0123456789'] },
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(req, res, { login: { accountId: login as string } }, { mergeWithLastSubmission: false })
        .catch((err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    async authorize(authorizationUrl, accountId) {
      login = accountId;
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        const res = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const eq = (pair ?? '').indexOf('=');
          if (eq > 0) jar.set((pair as string).slice(0, eq), (pair as string).slice(eq + 1));
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`provider answered ${res.status} at ${url}: ${await res.text()}`);
        const next = new URL(location, url);
        if (`${next.origin}${next.pathname}` === REDIRECT_URI) {
          const code = next.searchParams.get('code');
          const state = next.searchParams.get('state');
          if (!code || !state) throw new Error(`no code: ${next}`);
          return { code, state };
        }
        url = next;
      }
      throw new Error('too many redirects');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Configures the provider as tenant `tenantId`'s social sign-in `source`. */
export async function configureProvider(database: Database, tenantId: string, source: string, issuer: string) {
  const id = nextId();
  // Stored as production stores it: wrapped under the master key.
  const secret = await wrapProviderSecret(tenantId, id, OIDC_CLIENT.secret);
  await inSystem(database, (trx) =>
    trx
      .insertInto('oauth_provider')
      .values({
        tenant_id: tenantId,
        id,
        source,
        name: 'Test OIDC',
        client_id: OIDC_CLIENT.id,
        ...secret,
        authorize_url: `${issuer}/auth`,
        token_url: `${issuer}/token`,
        userinfo_url: `${issuer}/me`,
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile email phone',
      })
      .execute(),
  );
}
