/**
 * HTTP on the wire, for what `inject` cannot show: framing the parser refuses, headers over the
 * limit, a large body written before the answer is read, and whether the connection gave a whole
 * answer or was reset. One request per connection; the answer is read until the server closes or
 * the whole body (by `content-length`) has arrived.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface WireAnswer {
  /** Status, or undefined when no complete status line and headers arrived. */
  status: number | undefined;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the envelope is inspected field by field.
  body: any;
  /** The socket error that ended the exchange (ECONNRESET, EPIPE…), if any. */
  error: string | undefined;
}

export interface WireOptions {
  /** Give up after this long (the answer then has `error: 'TIMEOUT'`). Default 15 s. */
  timeoutMs?: number;
  /** Written after the head in a second write, without waiting for an answer (a large body). */
  body?: Buffer | string;
  /** Half-close after writing (default false: the client keeps its side open, as most do). */
  end?: boolean;
}

/**
 * The exchange runs on a thread of its own: a client on the server's event loop would take turns
 * with it, and never write faster than the server reads, which hides what a real client meets.
 */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const { port, head, body, end, timeoutMs } = workerData;
const socket = connect(port, '127.0.0.1');
const chunks = [];
let settled = false;
const finish = (error) => {
  if (settled) return;
  settled = true;
  clearTimeout(timer);
  socket.destroy();
  parentPort.postMessage({ answer: Buffer.concat(chunks), error });
};
const timer = setTimeout(() => finish('TIMEOUT'), timeoutMs);
const complete = (buffer) => {
  const at = buffer.indexOf('\\r\\n\\r\\n');
  if (at < 0) return false;
  const length = /\\r\\ncontent-length:\\s*(\\d+)/i.exec(buffer.subarray(0, at).toString('latin1'));
  return length !== null && buffer.length - at - 4 >= Number(length[1]);
};
socket.on('data', (chunk) => {
  chunks.push(chunk);
  if (complete(Buffer.concat(chunks))) finish(undefined);
});
socket.on('error', (error) => finish(error.code || error.message));
socket.on('close', () => finish(undefined));
socket.write(Buffer.from(head));
if (body !== undefined) socket.write(Buffer.from(body));
if (end) socket.end();
`;

export async function sendRaw(
  port: number,
  head: string | Buffer,
  options: WireOptions = {},
): Promise<WireAnswer> {
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: {
      port,
      head: typeof head === 'string' ? Buffer.from(head, 'latin1') : head,
      body: typeof options.body === 'string' ? Buffer.from(options.body, 'latin1') : options.body,
      end: options.end ?? false,
      timeoutMs: options.timeoutMs ?? 15_000,
    },
  });
  try {
    const [message] = (await once(worker, 'message')) as [{ answer: Uint8Array; error: string | undefined }];
    return parseAnswer(Buffer.from(message.answer), message.error);
  } finally {
    await worker.terminate();
  }
}

function splitHead(buffer: Buffer): { head: string; rest: Buffer } | undefined {
  const at = buffer.indexOf('\r\n\r\n');
  if (at < 0) return undefined;
  return { head: buffer.subarray(0, at).toString('latin1'), rest: buffer.subarray(at + 4) };
}

function parseAnswer(buffer: Buffer, error: string | undefined): WireAnswer {
  const parts = splitHead(buffer);
  if (parts === undefined) return { status: undefined, headers: {}, text: '', body: undefined, error };
  const [statusLine = '', ...lines] = parts.head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const text = parts.rest.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  return { status: Number.isNaN(status) ? undefined : status, headers, text, body, error };
}

/** The head of a request: request line, `host`, the given headers, and the blank line. */
export function requestHead(method: string, path: string, headers: Record<string, string> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: 127.0.0.1'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
