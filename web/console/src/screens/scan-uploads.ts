/**
 * The door's way to the service: every scan is kept on the device first (door-queue.ts), then sent
 * with its `scanned_at` and `nonce`; it leaves the device once the service has answered it. Sends
 * run one at a time, oldest first, so scans made offline are counted in the order they were made.
 * What waits is sent again when the browser says it is online, when the door opens, and every few
 * seconds while anything waits (a browser can be offline without saying so).
 */
import { useQueryClient } from '@tanstack/preact-query';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, type Schemas, unwrap } from '../api.ts';
import { enqueueScan, forgetScan, type QueuedScan, queuedScans } from '../door-queue.ts';

export type Answer = Schemas['CheckInAnswer'];

/** What sending one scan came to. */
export type Sent =
  | { kind: 'answered'; answer: Answer }
  /** No answer (no network, the service down or signed out): the scan waits on the device. */
  | { kind: 'kept'; error: unknown }
  /** An answer that is no check-in (a scan too old to count): the scan leaves, the error is shown. */
  | { kind: 'refused'; error: unknown };

/** How often waiting scans are offered again. */
const RETRY_EVERY_MS = 5_000;

/** A scan's id, from the browser's random numbers (`crypto.randomUUID` needs a secure context). */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Whether a refusal may go away by sending again later: signed out, too many, the service's fault. */
const worthRetrying = (status: number) => status === 401 || status === 408 || status === 429 || status >= 500;

async function send(scan: QueuedScan): Promise<Sent> {
  try {
    const answer = await unwrap(
      api.POST('/editions/{edition_id}/check-ins', {
        params: { path: { edition_id: scan.editionId } },
        body: {
          code: scan.code,
          nonce: scan.nonce,
          scanned_at: scan.scannedAt,
          ...(scan.programId === null ? {} : { program_id: scan.programId }),
        },
      }),
    );
    return { kind: 'answered', answer };
  } catch (error) {
    if (!(error instanceof ApiError)) return { kind: 'kept', error };
    // A refused badge is an answer too: the 409 carries it in `error.meta`.
    if (error.status === 409 && error.meta !== undefined) {
      return { kind: 'answered', answer: error.meta as Answer };
    }
    return worthRetrying(error.status) ? { kind: 'kept', error } : { kind: 'refused', error };
  }
}

/** One send at a time for the whole page: a scan is never in two requests of this device at once. */
let sending: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = sending.then(work, work);
  sending = next.catch(() => undefined);
  return next;
}

/**
 * Sends what waits for the edition, oldest first, until one gets no answer; answers what happened
 * to each scan sent, by nonce.
 */
function sendWaiting(editionId: string): Promise<Map<string, Sent>> {
  return oneAtATime(async () => {
    const outcomes = new Map<string, Sent>();
    for (const scan of await queuedScans(editionId)) {
      const sent = await send(scan);
      outcomes.set(scan.nonce, sent);
      if (sent.kind === 'kept') break;
      await forgetScan(scan.nonce);
    }
    return outcomes;
  });
}

/**
 * The door's scans for an edition: `scan(code, programId)` keeps the scan, sends it with whatever
 * waited before it, and answers what came of it; `waiting` is how many scans the device still holds.
 */
export function useDoorScans(editionId: string) {
  const queries = useQueryClient();
  const [waiting, setWaiting] = useState(0);
  const alive = useRef(true);

  const settle = useCallback(
    async (outcomes: Map<string, Sent>) => {
      const left = (await queuedScans(editionId)).length;
      if (alive.current) setWaiting(left);
      if ([...outcomes.values()].some((sent) => sent.kind === 'answered')) {
        void queries.invalidateQueries({ queryKey: ['attendance', editionId] });
        void queries.invalidateQueries({ queryKey: ['check-ins', editionId] });
      }
    },
    [editionId, queries],
  );

  const flush = useCallback(async () => {
    await settle(await sendWaiting(editionId));
  }, [editionId, settle]);

  useEffect(() => {
    alive.current = true;
    if (editionId === '') return undefined;
    void flush().catch(() => undefined);
    const retry = () => void flush().catch(() => undefined);
    window.addEventListener('online', retry);
    const timer = window.setInterval(retry, RETRY_EVERY_MS);
    return () => {
      alive.current = false;
      window.removeEventListener('online', retry);
      window.clearInterval(timer);
    };
  }, [editionId, flush]);

  const scan = useCallback(
    async (code: string, programId: string | null): Promise<Sent> => {
      const made: QueuedScan = {
        nonce: nonce(),
        editionId,
        code,
        programId,
        scannedAt: new Date().toISOString(),
      };
      await enqueueScan(made);
      const outcomes = await sendWaiting(editionId);
      await settle(outcomes);
      // Not reached when an older scan got no answer first: this one waits behind it.
      return outcomes.get(made.nonce) ?? { kind: 'kept', error: undefined };
    },
    [editionId, settle],
  );

  return { scan, waiting };
}
