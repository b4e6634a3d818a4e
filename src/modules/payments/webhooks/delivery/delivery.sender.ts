/**
 * One outbound delivery attempt (docs/reference/webhooks.md): a Standard Webhooks `POST` with `undici`,
 * bounded by WEBHOOK_TIMEOUT_MS from connect to the end of the body, keeping the first 4 KiB of the answer.
 * Redirects are not followed (a 3xx is a failed attempt).
 *
 * When private targets are not allowed, the address actually connected to is checked, after DNS
 * resolution: an endpoint whose name was re-pointed at the internal network after it was
 * registered (DNS rebinding) is refused before a byte is sent.
 */
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { isPrivateAddress } from '../../../../kernel/net/private-address.ts';
import { signWebhook } from '../../../../kernel/webhook-signature.ts';
import { parseRetryAfter } from './delivery.schedule.ts';

/** How much of a subscriber's answer is kept (docs/reference/webhooks.md). */
export const RESPONSE_BODY_LIMIT = 4096;
/** How much more of an answer is read so the connection can be reused; beyond, it is closed. */
const DRAIN_LIMIT = 64 * 1024;
/**
 * The kept answer as text: a multi-byte character cut at the limit becomes U+FFFD rather than
 * failing the decode, and a leading byte-order mark is dropped.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

export interface OutboundMessage {
  url: string;
  /** The event id: `webhook-id`, the same on every attempt so subscribers can de-duplicate. */
  id: string;
  body: string;
  /** The endpoint's current secret, then the previous one while a rotation lasts. */
  secrets: string[];
}

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  /** The subscriber's HTTP status, undefined when none arrived. */
  responseStatus: number | undefined;
  responseBody: string | undefined;
  /** Why no usable answer arrived (timeout, connection refused, private address …). */
  error: string | undefined;
  retryAfterSeconds: number | undefined;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /** Open connections per subscriber origin. */
  connectionsPerOrigin?: number;
}

class PrivateTargetError extends Error {
  constructor(address: string) {
    super(`refused: the endpoint resolves to a private address (${address})`);
    this.name = 'PrivateTargetError';
  }
}

export interface Sender {
  send(message: OutboundMessage): Promise<AttemptResult>;
  close(): Promise<void>;
}

export function createSender(options: SenderOptions): Sender {
  const connect = buildConnector({ timeout: options.timeoutMs });
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? 64,
    keepAliveTimeout: 4_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: options.allowPrivateTargets
      ? { timeout: options.timeoutMs }
      : (connectOptions, callback) =>
          connect(connectOptions, (error, socket) => {
            if (error !== null) return callback(error, null);
            const address = socket.remoteAddress;
            if (address === undefined || isPrivateAddress(address)) {
              socket.destroy();
              return callback(new PrivateTargetError(address ?? 'unknown'), null);
            }
            callback(null, socket);
          }),
  });

  return {
    send: (message) => attempt(agent, message, options.timeoutMs),
    close: () => agent.close(),
  };
}

/**
 * One POST through undici's dispatch interface rather than `request`: no body stream, no promise
 * per chunk and no AbortSignal (`request` with `AbortSignal.timeout` took 54–142 µs of CPU per
 * request on the bench machine, this 26–40 µs; the worker's largest cost in the scale bench). One
 * timer bounds the whole attempt and aborts it through the dispatch's controller. Of the answer, the first
 * RESPONSE_BODY_LIMIT bytes are kept and the rest is read and dropped up to DRAIN_LIMIT so the connection can
 * serve the next delivery; past that, the attempt ends and the connection is closed.
 */
function attempt(agent: Agent, message: OutboundMessage, timeoutMs: number): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let read = 0;
    let status: number | undefined;
    let retryAfter: string | string[] | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    const finish = (partial: Partial<AttemptResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        startedAt,
        durationMs: Math.round(performance.now() - started),
        responseStatus: undefined,
        responseBody: undefined,
        error: undefined,
        retryAfterSeconds: undefined,
        ...partial,
      });
    };
    const answered = () =>
      finish({
        responseStatus: status,
        responseBody: UTF8.decode(Buffer.concat(chunks)),
        retryAfterSeconds: parseRetryAfter(retryAfter),
      });
    const timer = setTimeout(() => {
      finish({ error: `timed out after ${timeoutMs} ms` });
      controller?.abort(new Error('timed out'));
    }, timeoutMs);
    // Like AbortSignal.timeout's: the attempt's socket keeps the process alive, not its timer.
    timer.unref();
    // A URL that does not parse is the endpoint's failure, described like a connection's.
    let target: URL;
    try {
      target = new URL(message.url);
    } catch (error) {
      return finish({ error: describe(error, timeoutMs) });
    }
    agent.dispatch(
      {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Convene-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signWebhook(
            { id: message.id, timestamp, body: message.body },
            message.secrets,
          ),
        },
        body: message.body,
      },
      {
        onRequestStart(dispatch) {
          controller = dispatch;
          if (settled) dispatch.abort(new Error('timed out'));
        },
        onResponseStart(_dispatch, statusCode, headers) {
          status = statusCode;
          retryAfter = headers['retry-after'];
        },
        onResponseData(dispatch, chunk) {
          if (kept < RESPONSE_BODY_LIMIT) {
            const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - kept);
            chunks.push(part);
            kept += part.length;
          }
          read += chunk.length;
          if (read > DRAIN_LIMIT) {
            answered();
            dispatch.abort(new Error('answer longer than the drain limit'));
          }
        },
        onResponseEnd: answered,
        onResponseError(_dispatch, error) {
          finish({ error: describe(error, timeoutMs) });
        },
      },
    );
  });
}

/** A short, secret-free reason for a failed attempt. */
function describe(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || /Timeout/.test(err.code ?? '')) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (err.name === 'PrivateTargetError') return err.message ?? 'refused: private address';
  const cause = err.cause as { code?: string; message?: string; name?: string } | undefined;
  if (cause?.name === 'PrivateTargetError') return cause.message ?? 'refused: private address';
  const code = err.code ?? cause?.code;
  if (code !== undefined) return `connection failed (${code})`;
  return `request failed: ${err.message ?? String(error)}`.slice(0, 300);
}
