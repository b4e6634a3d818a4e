/**
 * `/console/editions/{edition_id}/scan`: the door, for staff and up, phone first. The place is chosen
 * once (the edition itself or one of its programs; this device remembers it for the edition), then
 * each badge is checked in by what its QR code holds, typed or pasted here
 * (`POST /editions/{edition_id}/check-ins`). Each scan is kept on the device before it is sent, and
 * sent with its time and a `nonce` (scan-uploads.ts): with the network down it waits, said on screen
 * and counted, and goes when the network returns, counted once however often it is sent. The
 * answer fills the screen at a glance: green for `ok` with the holder's name and ticket, amber for
 * `already_checked_in` with the first time, red for every refusal (the 409's `error.meta` carries
 * the same answer), each with its own tone and vibration; the field is emptied and focused for the
 * next badge, no tap needed. The attendance counts (`GET /editions/{edition_id}/attendance`) and the
 * latest check-ins (`GET /editions/{edition_id}/check-ins`, at the program chosen, or everywhere)
 * refresh every few seconds and after each scan.
 */
import { useQuery } from '@tanstack/preact-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, type Schemas, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import { ErrorNotice, Pending } from '../ui.tsx';
import { useEdition, usePrograms } from './edition.tsx';
import { useEvent } from './event.tsx';
import { EditionCrumbs } from './nav.tsx';
import { Camera } from './scan-camera.tsx';
import { type Answer, type Sent, useDoorScans } from './scan-uploads.ts';

type Program = Schemas['Program'];
type CheckIn = Schemas['CheckIn'];
type Tone = 'ok' | 'warn' | 'bad';

/** How often the counts and the latest check-ins are read again while the door is open. */
const COUNTS_EVERY_MS = 5_000;
/** The name of each scan's time to its painted answer, in the page's performance timeline. */
const SCAN_MEASURE = 'convene:door-scan';
/** Check-ins listed under the counts. */
const LATEST = 10;

const toneOf = (result: Answer['result']): Tone =>
  result === 'ok' ? 'ok' : result === 'already_checked_in' ? 'warn' : 'bad';

/** A tone per kind of answer (a rising pair, a double beep, a low buzz) and a vibration. */
const SIGNALS: Record<Tone, { tones: Array<[number, number]>; vibration: number[] }> = {
  ok: {
    tones: [
      [880, 0.09],
      [1320, 0.12],
    ],
    vibration: [60],
  },
  warn: {
    tones: [
      [660, 0.1],
      [0, 0.06],
      [660, 0.1],
    ],
    vibration: [60, 60, 60],
  },
  bad: { tones: [[180, 0.4]], vibration: [300] },
};

let audio: AudioContext | undefined;

/** Plays the answer's signal; silent where the browser has no audio or vibration. */
function signal(tone: Tone) {
  const { tones, vibration } = SIGNALS[tone];
  navigator.vibrate?.(vibration);
  try {
    audio ??= new AudioContext();
    let at = audio.currentTime;
    for (const [frequency, seconds] of tones) {
      if (frequency > 0) {
        const oscillator = audio.createOscillator();
        const gain = audio.createGain();
        oscillator.frequency.value = frequency;
        gain.gain.value = 0.2;
        oscillator.connect(gain).connect(audio.destination);
        oscillator.start(at);
        oscillator.stop(at + seconds);
      }
      at += seconds;
    }
  } catch {
    // No audio output (a headless browser, a locked-down device): the screen says it all.
  }
}

/** The place this device checks in at, for an edition: '' is the edition itself. */
function usePlace(editionId: string): [string, (place: string) => void] {
  const key = `convene.scan.place.${editionId}`;
  const [place, setPlace] = useState(() => {
    try {
      return localStorage.getItem(key) ?? '';
    } catch {
      return '';
    }
  });
  const choose = (next: string) => {
    setPlace(next);
    try {
      localStorage.setItem(key, next);
    } catch {
      // Storage refused (private mode): the choice lasts for this page.
    }
  };
  return [place, choose];
}

/** A scan kept on the device, no answer yet: said plainly, in neither green nor red. */
function Queued({ scans }: { scans: number }) {
  const { t } = useI18n();
  return (
    <section
      class="scan-result scan-queued"
      aria-labelledby="scan-verdict"
      data-result="queued"
      data-scans={scans}
    >
      <p class="scan-verdict" id="scan-verdict">
        {t('scanQueued')}
      </p>
      <p>{t('scanQueuedHint')}</p>
    </section>
  );
}

/** `scans`: how many answers this screen has shown, so a reader (or a test) tells this one from the last. */
function Result({ answer, scans }: { answer: Answer; scans: number }) {
  const { t, when } = useI18n();
  const tone = toneOf(answer.result);
  return (
    <section
      class={`scan-result scan-${tone}`}
      aria-labelledby="scan-verdict"
      data-result={answer.result}
      data-scans={scans}
    >
      <p class="scan-verdict" id="scan-verdict">
        {t(`scan_${answer.result}`)}
      </p>
      {answer.holder_name ? <p class="scan-holder">{answer.holder_name}</p> : null}
      {answer.ticket_name ? <p>{answer.ticket_name}</p> : null}
      {answer.result === 'already_checked_in' && answer.first_checked_in_at ? (
        <p>{t('scanFirstAt', { when: when(answer.first_checked_in_at) })}</p>
      ) : null}
      {answer.result === 'not_allowed' && answer.reason ? <p>{t(`scanReason_${answer.reason}`)}</p> : null}
      {answer.result === 'not_open' ? <p>{t('scanNotOpenHint')}</p> : null}
      {answer.result === 'unknown' ? <p>{t('scanUnknownHint')}</p> : null}
    </section>
  );
}

function Counts({ editionId, place, waiting }: { editionId: string; place: string; waiting: number }) {
  const { t } = useI18n();
  const attendance = useQuery({
    queryKey: ['attendance', editionId],
    queryFn: () =>
      unwrap(api.GET('/editions/{edition_id}/attendance', { params: { path: { edition_id: editionId } } })),
    refetchInterval: COUNTS_EVERY_MS,
  });
  const counts =
    place === '' ? attendance.data?.edition : attendance.data?.programs.find((p) => p.program_id === place);
  return (
    <>
      {counts !== undefined ? (
        <p class="scan-counts" id="scan-counts">
          <span class="muted">{t('scanCountsTitle')}: </span>
          {t('scanCounts', { checkedIn: counts.checked_in, registered: counts.registered })}
        </p>
      ) : attendance.data === undefined ? (
        <Pending query={attendance} />
      ) : null}
      {waiting > 0 ? (
        <p class="scan-waiting" id="scan-waiting">
          {t('scanWaiting', { count: waiting })}
        </p>
      ) : null}
    </>
  );
}

/** The newest check-ins at the place chosen (a program), or everywhere (the edition), with where. */
function LatestCheckIns({
  editionId,
  place,
  programs,
}: {
  editionId: string;
  place: string;
  programs: Program[];
}) {
  const { t } = useI18n();
  const latest = useQuery({
    queryKey: ['check-ins', editionId, place],
    queryFn: () =>
      unwrap(
        api.GET('/editions/{edition_id}/check-ins', {
          params: {
            path: { edition_id: editionId },
            query: { limit: LATEST, ...(place === '' ? {} : { program_id: place }) },
          },
        }),
      ),
    refetchInterval: COUNTS_EVERY_MS,
  });
  return (
    <section aria-labelledby="scan-latest">
      <h2 id="scan-latest">{t('scanLatest')}</h2>
      {latest.data === undefined ? (
        <Pending query={latest} />
      ) : latest.data.length === 0 ? (
        <p class="muted">{t('scanLatestNone')}</p>
      ) : (
        <CheckInRows
          id="scan-latest-list"
          checkIns={latest.data}
          programName={(id) => programs.find((program) => program.id === id)?.name}
        />
      )}
    </section>
  );
}

/** Check-ins as rows: who, their ticket, when, and where (the edition itself, or a program by name). */
export function CheckInRows({
  id,
  checkIns,
  programName,
}: {
  id: string;
  checkIns: CheckIn[];
  programName: (programId: string) => string | undefined;
}) {
  const { t, when } = useI18n();
  return (
    <ul class="rows" id={id}>
      {checkIns.map((checkIn) => (
        <li key={checkIn.id}>
          <strong>{checkIn.holder_name}</strong>
          <span class="muted">
            {checkIn.ticket_name ? ` · ${checkIn.ticket_name}` : ''} · {when(checkIn.checked_in_at)} ·{' '}
            {checkIn.program_id === null
              ? t('scanAtEdition')
              : t('scanAtProgram', { name: programName(checkIn.program_id) ?? '…' })}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function ScanScreen() {
  const { t } = useI18n();
  const { params } = useRoute();
  const editionId = params.editionId ?? '';
  const edition = useEdition(editionId);
  const eventId = edition.data?.event_id ?? '';
  const event = useEvent(eventId);
  const programs = usePrograms(editionId);
  const [place, setPlace] = usePlace(editionId);
  const [shown, setShown] = useState<Sent | null>(null);
  const [checking, setChecking] = useState(false);
  const [scans, setScans] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const door = useDoorScans(editionId);
  const checkIn = async (code: string) => {
    const started = performance.now();
    setChecking(true);
    try {
      const sent = await door.scan(code, place === '' ? null : place);
      setShown(sent);
      setScans((count) => count + 1);
      if (sent.kind === 'answered') signal(toneOf(sent.answer.result));
    } catch (error) {
      // The device could not keep the scan (storage refused): said, never silently dropped.
      setShown({ kind: 'refused', error });
      setScans((count) => count + 1);
    } finally {
      setChecking(false);
      input.current?.focus();
      // From the code handed over to the answer on screen: a frame's callback runs before that
      // frame is painted, a task queued from it after. The door bench reads these (bench/door.ts).
      requestAnimationFrame(() => setTimeout(() => performance.measure(SCAN_MEASURE, { start: started }), 0));
    }
  };
  useEffect(() => input.current?.focus(), []);
  const editionName = edition.data?.name;
  return (
    <>
      {eventId ? (
        <EditionCrumbs
          eventId={eventId}
          eventName={event.data?.name}
          editionId={editionId}
          editionName={editionName}
        />
      ) : null}
      <h1 tabIndex={-1}>{t('scanTitle', { edition: editionName ?? '…' })}</h1>
      {edition.isError ? <Pending query={edition} /> : null}
      <div class="field">
        <label for="scan-place">{t('scanPlace')}</label>
        <select
          id="scan-place"
          value={place}
          aria-describedby="scan-place-hint"
          onChange={(changed) => setPlace(changed.currentTarget.value)}
        >
          <option value="">{t('scanPlaceEdition')}</option>
          {(programs.data ?? []).map((program) => (
            <option key={program.id} value={program.id}>
              {program.name}
            </option>
          ))}
        </select>
        <p class="hint" id="scan-place-hint">
          {t('scanPlaceHint')}
        </p>
      </div>
      <Counts editionId={editionId} place={place} waiting={door.waiting} />
      {/* The answer first: read at a glance, above the camera and the field. */}
      <div role="status" aria-live="assertive" aria-atomic="true">
        {checking ? <p class="muted">{t('scanChecking')}</p> : null}
        {shown === null ? null : shown.kind === 'answered' ? (
          <Result answer={shown.answer} scans={scans} />
        ) : shown.kind === 'kept' ? (
          <Queued scans={scans} />
        ) : (
          <ErrorNotice error={shown.error} />
        )}
      </div>
      <Camera onCode={(code) => void checkIn(code)} />
      <form
        class="scan-form"
        onSubmit={(submitted) => {
          submitted.preventDefault();
          const field = input.current;
          const code = field?.value.trim() ?? '';
          if (code === '' || field === null) return;
          field.value = '';
          void checkIn(code);
        }}
      >
        <div class="field">
          <label for="scan-code">{t('scanCode')}</label>
          <input
            id="scan-code"
            ref={input}
            name="code"
            autoComplete="off"
            autoCapitalize="off"
            spellcheck={false}
            aria-describedby="scan-code-hint"
          />
          <p class="hint" id="scan-code-hint">
            {t('scanCodeHint')}
          </p>
        </div>
        <button type="submit" disabled={checking}>
          {t('scanCheckIn')}
        </button>
      </form>
      <LatestCheckIns editionId={editionId} place={place} programs={programs.data ?? []} />
    </>
  );
}
