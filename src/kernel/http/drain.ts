/**
 * Reading the rest of a refused request's body before answering. A client that writes its whole
 * body before reading (most do without `Expect: 100-continue`) is still writing when a refusal
 * (413, 401 before the body is read, 415) is ready; if the connection then closes with unread bytes,
 * the kernel answers them with a reset and the client loses the answer (EPIPE or ECONNRESET instead
 * of the 413). Like nginx's lingering close, the rest is read and thrown away, up to a bound: past
 * 16 MiB or 10 s the connection is dropped, since a client sending that much after a refusal is not
 * waiting for the answer.
 */
import type { IncomingMessage } from 'node:http';

export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
export const DRAIN_LIMIT_MS = 10_000;

/** Resolves once the body has been read to its end (at once when it already was). */
export function discardBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('close', finish);
      raw.off('error', finish);
      resolve();
    };
    const drop = () => {
      raw.socket.destroy();
      finish();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > DRAIN_LIMIT_BYTES) drop();
    };
    const timer = setTimeout(drop, DRAIN_LIMIT_MS);
    timer.unref();
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('close', finish);
    raw.once('error', finish);
    raw.resume();
  });
}
