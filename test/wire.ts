/**
 * Requests over a real TCP connection, one connection per request, the whole request written with
 * one `write()` before anything is read (as a careless or hostile client does: no
 * `Expect: 100-continue`, no waiting). The answer is parsed here, so what the fuzz sees is what
 * reached the socket: a complete HTTP answer, or a connection that was reset, closed early or went
 * silent. `inject()` cannot show those, which is why the fuzz does not use it.
 */
import { connect } from 'node:net';

export interface WireTarget {
  host: string;
  port: number;
}

/** A complete HTTP answer. */
export interface WireAnswer {
  kind: 'answer';
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
  /**
   * Set when the connection broke before the request was fully written (EPIPE, ECONNRESET): the
   * answer reached this client, which reads while it writes, but a client that writes its whole
   * request before reading (most do) loses it. docs/reference/errors.md has the server read and discard the
   * rest of an oversized body so that this does not happen.
   */
  writeFailed?: string;
}

/** No complete answer: reset, closed early, silent past the deadline, or unparsable. */
export interface WireFailure {
  kind: 'reset' | 'closed' | 'timeout' | 'garbled';
  detail: string;
  /** What arrived before the connection ended (often nothing). */
  partial: Buffer;
  ms: number;
}

export type WireResult = WireAnswer | WireFailure;

/** Builds the bytes of a request: request line, headers (in order, as given), blank line, body. */
export function requestBytes(
  method: string,
  target: string,
  headers: Array<[string, string]>,
  body?: Buffer,
): Buffer {
  const head = `${method} ${target} HTTP/1.1\r\n${headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
  return body === undefined
    ? Buffer.from(head, 'latin1')
    : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

interface Head {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
}

function parseHead(data: Buffer): Head | 'incomplete' | 'garbled' {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return data.length > 64 * 1024 ? 'garbled' : 'incomplete';
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (match === null) return 'garbled';
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return 'garbled';
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: Number(match[1]), headers, bodyStart: end + 4 };
}

/** The decoded body of a chunked answer, or undefined while it is incomplete. */
function dechunk(data: Buffer): Buffer | undefined | 'garbled' {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size) || size < 0) return 'garbled';
    const start = lineEnd + 2;
    if (size === 0) return data.indexOf('\r\n', start) < 0 ? undefined : Buffer.concat(parts);
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** The answer so far: complete, incomplete, or not HTTP. `atEnd`: the peer has closed. */
function parseAnswer(data: Buffer, atEnd: boolean, started: number): WireAnswer | 'incomplete' | 'garbled' {
  const head = parseHead(data);
  if (head === 'incomplete' || head === 'garbled') return head;
  const rest = data.subarray(head.bodyStart);
  const answer = (body: Buffer): WireAnswer => ({
    kind: 'answer',
    status: head.status,
    headers: head.headers,
    body,
    ms: performance.now() - started,
  });
  if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
    const body = dechunk(rest);
    if (body === 'garbled') return 'garbled';
    return body === undefined ? 'incomplete' : answer(body);
  }
  const declared = head.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (!Number.isInteger(length) || length < 0) return 'garbled';
    return rest.length >= length ? answer(rest.subarray(0, length)) : 'incomplete';
  }
  // Neither length nor chunking: the body runs to the end of the connection (or there is none).
  if (head.status === 204 || head.status === 304 || (head.status >= 100 && head.status < 200)) {
    return answer(Buffer.alloc(0));
  }
  return atEnd ? answer(rest) : 'incomplete';
}

/**
 * Writes `bytes` at once on a new connection and reads one answer. Never rejects: every way a
 * connection can fail is a `WireFailure`. The socket is destroyed before this resolves.
 */
export function exchange(target: WireTarget, bytes: Buffer, timeoutMs: number): Promise<WireResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let settled = false;
    let isWritten = false;
    let answered: WireAnswer | undefined;
    const socket = connect({ host: target.host, port: target.port });
    const received = () => Buffer.concat(chunks);
    const finish = (result: WireResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const fail = (kind: WireFailure['kind'], detail: string) =>
      finish({ kind, detail, partial: received(), ms: performance.now() - started });
    // An answer that is complete by the time the connection breaks still counts as an answer:
    // the server may close (even reset) right after sending it. But it is held until the request
    // is written out, to see whether the connection broke under the writer first.
    const settleAt = (atEnd: boolean, onIncomplete: () => void) => {
      if (answered !== undefined) return;
      const parsed = parseAnswer(received(), atEnd, started);
      if (parsed === 'garbled') fail('garbled', 'the answer is not HTTP/1.1');
      else if (parsed === 'incomplete') onIncomplete();
      else if (isWritten) finish(parsed);
      else answered = parsed;
    };
    const writeBroke = (detail: string) => {
      if (answered !== undefined) finish({ ...answered, writeFailed: detail });
    };
    const timer = setTimeout(() => {
      if (answered !== undefined) writeBroke(`the server stopped reading the request (${timeoutMs} ms)`);
      else fail('timeout', `no complete answer within ${timeoutMs} ms`);
    }, timeoutMs);
    socket.setNoDelay(true);
    socket.on('connect', () => {
      socket.write(bytes, (error) => {
        if (error !== undefined && error !== null) return;
        isWritten = true;
        if (answered !== undefined) finish(answered);
      });
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      settleAt(false, () => {});
    });
    socket.on('end', () => {
      // A server may stop writing and still read (half-close): wait for the write to end or break.
      if (answered !== undefined) return;
      settleAt(true, () =>
        fail('closed', received().length === 0 ? 'closed without an answer' : 'closed mid-answer'),
      );
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (answered !== undefined) return writeBroke(`${error.code ?? error.name} while writing the request`);
      settleAt(true, () => fail('reset', `${error.code ?? error.name}: ${error.message}`));
    });
    socket.on('close', () => {
      if (answered !== undefined) return writeBroke('closed while writing the request');
      settleAt(true, () => fail('closed', 'closed without an answer'));
    });
  });
}
