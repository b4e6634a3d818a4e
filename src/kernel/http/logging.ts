import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Pino options. Secrets never reach the logs: credentials in headers and any field named like a
 * secret are censored, and token query parameters (signature links) are masked in logged URLs.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-signature"]',
  'headers.authorization',
  '*.token',
  '*.revoke_token',
  '*.secret',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
  '*.password',
];

export function maskUrl(url: string): string {
  return url.replace(/([?&](?:token|code|state|access_token)=)[^&]*/gi, '$1[REDACTED]');
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (request) => ({
        method: request.method,
        url: maskUrl(request.url),
        remote_address: request.ip,
      }),
    },
  };
}
