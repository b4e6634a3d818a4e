import type { FastifyServerOptions } from 'fastify';
import { uuidv7 } from '../db/ids.ts';

// A caller-supplied `x-request-id` is kept when it is short and plain (it ends up in logs);
// otherwise the service makes one. `logging.ts` echoes it on every response.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestIdOptions = {
  requestIdHeader: 'x-request-id',
  requestIdLogLabel: 'request_id',
  genReqId: (request) => {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && SAFE_ID.test(given) ? given : uuidv7();
  },
} satisfies Partial<FastifyServerOptions>;
