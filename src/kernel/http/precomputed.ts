/**
 * A large document built once and served from memory, for the API's own documents (the OpenAPI
 * document is 800 KB). Serializing it per request cost ~23 ms of CPU each, and every queued answer
 * held its own copy: 20 connections pipelining it without reading grew the process past 1 GiB and
 * left /health unanswered for 20 s. Built on first use, the identity, gzip and brotli forms are
 * shared Buffers (a queued answer holds a reference, not a copy), with a strong ETag so a client
 * that has it gets a 304.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip' | 'identity';

export interface Forms {
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** The identity, brotli and gzip forms of `content`, with its strong ETag (also the console's files). */
export async function buildForms(content: string | Buffer): Promise<Forms> {
  const identity = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const [br, gz] = await Promise.all([
    // Quality 9 of 11: within a few percent of the best size, at a fraction of its time.
    compressBrotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
    compressGzip(identity, { level: 9 }),
  ]);
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 32)}"`;
  return { etag, bodies: { identity, br, gzip: gz } };
}

/** A handler serving `build()`'s text (built once, on the first request) as `contentType`. */
export function precomputed(contentType: string, build: () => string) {
  let forms: Promise<Forms> | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    forms ??= buildForms(build());
    const { etag, bodies } = await forms;
    reply.header('etag', etag).header('vary', 'accept-encoding').header('cache-control', 'no-cache');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.type(contentType).send(bodies[encoding]);
  };
}

/** Whether an `If-None-Match` header names `etag` (or `*`); weak forms compare by their tag. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** brotli, else gzip, else none, as `Accept-Encoding` allows (q=0 refuses; `*` stands for the rest). */
export function preferredEncoding(header: string | undefined): Encoding {
  if (header === undefined) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return 'identity';
}
