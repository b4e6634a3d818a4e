/**
 * The `pdf` phase of the flood suite (bench/flood.ts; issue 27, item 2): clients looping
 * certificate PDFs whose edition has five signatures of the largest size the API takes, each
 * client asking for a certificate nobody asked for before, so every answer is a rendering (a
 * stored document served again would hide its cost).
 *
 * Seeding, through the API as an integrator does it: an owner, a published event and edition
 * (under way), a free ticket type; five signature requests fulfilled with 614 x 614 RGBA PNGs of
 * noise (~490 KiB each, test/pdf.ts); BENCH_FLOOD_CERTIFICATES people registered and checked in
 * at the door; an attendance template; the issuance, polled until completed.
 */
import { hostileSignaturePng } from '../test/pdf.ts';
import { callApi, log, positiveInteger, type Signer, sleep } from './lib.ts';

const people = positiveInteger('BENCH_FLOOD_CERTIFICATES', 300);
/** Clients looping PDFs: each has one request in flight. */
export const PDF_CLIENTS = 4;
const SIGNATURES = 5;
const SEED_CONCURRENCY = 8;

export interface PdfSeed {
  ownerToken: string;
  certificateIds: string[];
  /** Bytes of the signature images as planted and as the service stored them. */
  plantedBytes: number;
  storedBytes: number;
}

/** Runs `task(0…count-1)` with `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const dataUrlBytes = (url: string) => Math.floor(((url.length - 'data:image/png;base64,'.length) * 3) / 4);

export async function seedCertificates(base: string, signer: Signer): Promise<PdfSeed> {
  const ownerToken = await signer.token('owner@pdf-flood.example');
  const call = <T = Record<string, string>>(method: string, path: string, body?: unknown) =>
    callApi<T>(base, method, path, ownerToken, body);
  const event = (await call('POST', '/events', { name: 'Signed Conf', slug: 'signed-conf' })).data;
  await call('POST', `/events/${event.id}/publish`);
  const now = Date.now();
  const edition = (
    await call('POST', `/events/${event.id}/editions`, {
      name: 'Signed Conf 2026',
      slug: 'y2026',
      starts_at: new Date(now - 3_600_000).toISOString(),
      ends_at: new Date(now + 2 * 86_400_000).toISOString(),
    })
  ).data;
  await call('POST', `/events/${event.id}/editions/${edition.id}/publish`);
  const ticket = (
    await call('POST', `/editions/${edition.id}/ticket-types`, {
      name: 'Pass',
      price_cents: 0,
      access_level: 1,
    })
  ).data;

  let plantedBytes = 0;
  let storedBytes = 0;
  for (let index = 0; index < SIGNATURES; index++) {
    const request = (
      await call('POST', `/editions/${edition.id}/signature-requests`, {
        signatory_name: `Signatory ${index + 1}`,
        signatory_email: `signatory${index + 1}@pdf-flood.example`,
      })
    ).data;
    const planted = `data:image/png;base64,${hostileSignaturePng(614, index + 1).toString('base64')}`;
    const signature = (
      await call<{ image_url: string }>('POST', `/signature-requests/fulfill?token=${request.token}`, {
        image_url: planted,
      })
    ).data;
    plantedBytes += dataUrlBytes(planted);
    storedBytes += dataUrlBytes(signature.image_url);
  }
  log(
    `${SIGNATURES} signatures planted: ${(plantedBytes / 1024).toFixed(0)} KiB, ` +
      `stored as ${(storedBytes / 1024).toFixed(0)} KiB`,
  );

  log(`registering and checking in ${people} people`);
  await inParallel(people, SEED_CONCURRENCY, async (index) => {
    const token = await signer.token(`person${index}@pdf-flood.example`);
    await callApi(base, 'POST', `/editions/${edition.id}/registrations`, token, {
      ticket_type_id: ticket.id,
    });
  });
  const items = (
    await call<Array<{ variables: { action_url: string } }>>('GET', `/editions/${edition.id}/badges/print`)
  ).data;
  await inParallel(items.length, SEED_CONCURRENCY, async (index) => {
    await call('POST', `/editions/${edition.id}/check-ins`, { code: items[index]!.variables.action_url });
  });

  await call('POST', `/editions/${edition.id}/certifications/templates`, {
    kind: 'edition_attendance',
    name: 'Certificate of attendance',
  });
  const jobId = (await call<{ job_id: string }>('POST', `/editions/${edition.id}/certificates/issue`, {}))
    .data.job_id;
  for (;;) {
    const job = (await call<{ status: string }>('GET', `/jobs/${jobId}`)).data;
    if (job.status === 'completed') break;
    if (job.status === 'failed') throw new Error('the issuance failed');
    await sleep(200);
  }
  const certificateIds: string[] = [];
  for (let page = 1; ; page++) {
    const listed = await call<Array<{ id: string }>>(
      'GET',
      `/editions/${edition.id}/certificates?limit=100&page=${page}`,
    );
    certificateIds.push(...listed.data.map((certificate) => certificate.id));
    if (listed.data.length < 100) break;
  }
  log(`${certificateIds.length} certificates issued`);
  return { ownerToken, certificateIds, plantedBytes, storedBytes };
}

export interface PdfAnswers {
  /** Answers by status (0: no answer). */
  statuses: Map<number, number>;
  /** Certificates asked for the first time (a rendering each). */
  firstAsks: number;
  /** Latency of the 200 answers, ms. */
  okMs: number[];
}

/**
 * PDF_CLIENTS loops, each asking the next certificate not yet asked (then, all asked, the stored
 * ones again); resolves with the answers when stopped.
 */
export async function loopPdfs(base: string, seed: PdfSeed, isRunning: () => boolean): Promise<PdfAnswers> {
  const answers: PdfAnswers = { statuses: new Map(), firstAsks: 0, okMs: [] };
  let next = 0;
  const client = async () => {
    while (isRunning()) {
      const index = next++;
      if (index < seed.certificateIds.length) answers.firstAsks++;
      const id = seed.certificateIds[index % seed.certificateIds.length]!;
      const started = performance.now();
      let status = 0;
      try {
        const response = await fetch(`${base}/certificates/${id}/pdf`, {
          headers: { authorization: `Bearer ${seed.ownerToken}` },
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = 0;
      }
      answers.statuses.set(status, (answers.statuses.get(status) ?? 0) + 1);
      if (status === 200) answers.okMs.push(performance.now() - started);
      // A refused client (503: the render queue is full) comes back shortly, as told.
      else await sleep(100);
    }
  };
  await Promise.all(Array.from({ length: PDF_CLIENTS }, client));
  return answers;
}
