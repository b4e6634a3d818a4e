import type { FastifyServerOptions } from 'fastify';
import { uuidv7 } from '../db/ids.ts';

// A caller-supplied `x-request-id` is kept when it is short and plain (it ends up in logs and
// headers); anything else is replaced. `requestIdHeader` is off on purpose: with it set, Fastify
// takes the header verbatim and never calls genReqId. `metrics.ts` echoes the id on responses.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestIdOptions = {
  requestIdHeader: false,
  genReqId: (request) => {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && SAFE_ID.test(given) ? given : uuidv7();
  },
} satisfies Partial<FastifyServerOptions>;
