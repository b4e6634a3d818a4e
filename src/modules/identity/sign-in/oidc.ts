/**
 * The OpenID Connect relying party (docs/reference/sign-in.md), with `openid-client`: discovery at
 * OIDC_ISSUER (once, retried after a failure), the authorization code flow with PKCE S256, and the ID
 * token checked by the library: its signature against the issuer's JWKS (non-repudiation checks on,
 * since without them the library trusts the token endpoint's TLS alone), `iss`, `aud`, `exp` and
 * `nonce`.
 */
import * as client from 'openid-client';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** PUBLIC_BASE_URL + `/auth/callback`. */
  redirectUri: string;
}

/** What a verified ID token says of the person. */
export interface OidcClaims {
  sub: string;
  email: unknown;
  name: unknown;
}

/** Seconds a request to the provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10;

export class OidcRelyingParty {
  private discovered: Promise<client.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  private configuration(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    // Plain http only for a loopback or development provider (production requires https: config.ts).
    const insecure = issuer.startsWith('http:') ? [client.allowInsecureRequests] : [];
    this.discovered ??= client
      .discovery(
        new URL(issuer),
        clientId,
        undefined,
        clientSecret === undefined ? client.None() : client.ClientSecretBasic(clientSecret),
        { execute: [...insecure, client.enableNonRepudiationChecks], timeout: PROVIDER_TIMEOUT_SECONDS },
      )
      .catch((error: unknown) => {
        // A provider that was down at the first sign-in is asked again at the next.
        this.discovered = undefined;
        throw error;
      });
    return this.discovered;
  }

  /** Where the browser is sent to sign in. */
  async authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const configuration = await this.configuration();
    return client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    });
  }

  /**
   * Trades the callback's code for tokens and returns the verified ID token's claims; throws when
   * anything does not check out (the provider's error, a bad token, a wrong nonce or state).
   */
  async verifiedClaims(
    query: string,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcClaims> {
    const configuration = await this.configuration();
    const callback = new URL(this.settings.redirectUri);
    callback.search = query;
    const tokens = await client.authorizationCodeGrant(configuration, callback, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (claims === undefined) throw new Error('the provider returned no ID token');
    return { sub: claims.sub, email: claims.email, name: claims.name };
  }
}

export const randomChecks = () => ({
  state: client.randomState(),
  nonce: client.randomNonce(),
  codeVerifier: client.randomPKCECodeVerifier(),
});
