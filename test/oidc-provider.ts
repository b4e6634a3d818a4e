/**
 * A real OpenID provider on loopback (`oidc-provider` 9) as the identity service of the tests
 * (docs/reference/sign-in.md). Small API:
 *
 *   const idp = await startOidcProvider();            // free loopback port, one confidential client
 *   const t = await createTestApp(idp.env, { listen: true });
 *   idp.allowRedirectsTo(t.baseUrl);                  // registers `<baseUrl>/auth/callback`
 *   idp.addAccount({ id: 'ana', email: 'ana@example.com', name: 'Ana Souza' });
 *   const { cookie } = await signInThroughProvider(t.baseUrl, { account: 'ana', returnTo: '/x' });
 *   await t.get('/auth/session', { headers: { cookie } });
 *   await idp.close();
 *
 * - `idp.env`: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET for `createTestApp`.
 * - Accounts are picked at the provider's login page (`/interaction/<uid>`): a form with one field,
 *   `#account` (labelled "Account"), and a "Sign in" button; a browser test fills it, and
 *   `signInThroughProvider` posts it. Consent is implied (a first-party client), PKCE is required.
 * - `signInThroughProvider` runs the whole flow with `fetch`, keeping cookies per host as a browser
 *   does, and stops at the app's answer to the callback; `stopAtCallback: true` stops before the
 *   callback instead and returns its URL (to replay it, or to send it with other cookies).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  /** The `sub` of the ID token (need not be a UUID). */
  id: string;
  email: string;
  name?: string;
}

export interface OidcProviderFixture {
  issuer: string;
  env: { OIDC_ISSUER: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
  /** Registers `<baseUrl>/auth/callback` as the client's redirect URI (the app's port is known late). */
  allowRedirectsTo(baseUrl: string): Promise<void>;
  addAccount(account: ProviderAccount): void;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<OidcProviderFixture> {
  const accounts = new Map<string, ProviderAccount>();
  const clientId = `convene-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' };

  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    // The client is registered by `allowRedirectsTo`, once the app's address is known.
    clients: [],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    // Set, so the provider does not print a notice for each default it would use.
    ttl: { AccessToken: 600, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Scope claims in the ID token itself (what the app reads), not only at the userinfo endpoint.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (account === undefined) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          ...(account.name === undefined ? {} : { name: account.name }),
        }),
      };
    },
    // A first-party client: consent is implied.
    async loadExistingGrant(ctx: ProviderContext) {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  const callback = provider.callback();
  handler = (req, res) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(req.url ?? '');
    if (match === null) return callback(req, res);
    interaction(provider, accounts, req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  };

  return {
    issuer,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret },
    async allowRedirectsTo(baseUrl) {
      // A "dynamic" client, read from the provider's storage at each use.
      await provider.Client.adapter.upsert(clientId, {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${baseUrl}/auth/callback`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
    },
    addAccount(account) {
      accounts.set(account.id, account);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface ProviderContext {
  oidc: {
    provider: Provider;
    client: { clientId: string };
    session: { accountId: string };
  };
}

/** The provider's login page: GET shows the form, POST signs the chosen account in. */
async function interaction(
  provider: Provider,
  accounts: Map<string, ProviderAccount>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (req.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const account = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('account') ?? '';
    if (!accounts.has(account)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`unknown account ${account}`);
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: account } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><title>Identity service</title></head><body><main>
<h1>Identity service</h1>
<form method="post" action="/interaction/${details.uid}">
<label for="account">Account</label> <input id="account" name="account" autocomplete="off">
<button type="submit">Sign in</button>
</form></main></body></html>`);
}

/** Cookies per host, as a browser keeps them (only what these flows need: name and value). */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  store(url: string | URL, response: Response): void {
    const host = new URL(url).hostname;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    this.byHost.set(host, jar);
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /;\s*max-age=0\b/i.test(line) || /;\s*expires=Thu, 01 Jan 1970/i.test(line);
      if (value === '' || expired) jar.delete(name);
      else jar.set(name, value);
    }
  }

  header(url: string | URL): string {
    const jar = this.byHost.get(new URL(url).hostname);
    return jar === undefined ? '' : [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One cookie's value for that host. */
  get(url: string | URL, name: string): string | undefined {
    return this.byHost.get(new URL(url).hostname)?.get(name);
  }
}

export interface SignInResult {
  /** The app's answer to the callback (302 to `return_to` on success; the failure page otherwise). */
  status: number;
  location: string | undefined;
  /** `convene_session=<value>` when a session started, ready for a `cookie` header. */
  cookie: string | undefined;
  /** With `stopAtCallback`: the callback URL the provider sent the browser to (not yet opened). */
  callbackUrl: string | undefined;
  jar: CookieJar;
}

/**
 * Signs `account` in through the provider the app is configured with: the app's `/auth/sign-in`,
 * the provider's redirects and login form, then the app's callback (see the header).
 */
export async function signInThroughProvider(
  appBaseUrl: string,
  options: { account: string; returnTo?: string; stopAtCallback?: boolean; jar?: CookieJar },
): Promise<SignInResult> {
  const jar = options.jar ?? new CookieJar();
  const callbackPrefix = `${appBaseUrl}/auth/callback`;
  let url = `${appBaseUrl}/auth/sign-in${options.returnTo === undefined ? '' : `?return_to=${encodeURIComponent(options.returnTo)}`}`;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop += 1) {
    if (options.stopAtCallback === true && url.startsWith(callbackPrefix)) {
      return { status: 0, location: undefined, cookie: undefined, callbackUrl: url, jar };
    }
    const headers = new Headers(init.headers);
    const cookies = jar.header(url);
    if (cookies !== '') headers.set('cookie', cookies);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    jar.store(url, response);
    const location = response.headers.get('location') ?? undefined;
    if (url.startsWith(callbackPrefix) || (url.startsWith(appBaseUrl) && response.status !== 302)) {
      await response.arrayBuffer();
      const name = [...response.headers.getSetCookie()].map((line) => line.split(';')[0]).find(Boolean);
      return { status: response.status, location, cookie: name, callbackUrl: undefined, jar };
    }
    if (location !== undefined && response.status >= 300 && response.status < 400) {
      await response.arrayBuffer();
      url = new URL(location, url).href;
      init = {};
      continue;
    }
    const page = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
    if (response.status !== 200 || action === undefined) {
      throw new Error(`the provider answered ${response.status} at ${url}: ${page.slice(0, 300)}`);
    }
    url = new URL(action, url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account: options.account }).toString(),
    };
  }
  throw new Error('the sign-in did not end within 20 steps');
}
