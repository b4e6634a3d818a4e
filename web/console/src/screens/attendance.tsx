/**
 * `/console/events/{event_id}/editions/{edition_id}/attendance`: who came, for staff and up, read
 * again every few seconds while the screen is open. The counts of the edition and of each program,
 * checked in against registered (and a program's places) (`GET /editions/{edition_id}/attendance`);
 * the check-ins, newest first, at one program or everywhere (`GET /editions/{edition_id}/check-ins`,
 * paged by the service); and a program's participants, who signed up and whether each was checked
 * in there (`GET /programs/{program_id}/participants`).
 */
import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api.ts';
import { useI18n } from '../i18n.tsx';
import { Paging, unwrapPage } from '../paging.tsx';
import { Pending } from '../ui.tsx';
import { useEditionRoute } from './edition.tsx';
import { EditionScreenHead } from './nav.tsx';
import { CheckInRows } from './scan.tsx';

/** How often the screen reads its lists again. */
const EVERY_MS = 5_000;
const LIMIT = 20;

function useAttendance(editionId: string) {
  return useQuery({
    queryKey: ['attendance', editionId],
    queryFn: () =>
      unwrap(api.GET('/editions/{edition_id}/attendance', { params: { path: { edition_id: editionId } } })),
    refetchInterval: EVERY_MS,
  });
}

function Counts({ editionId }: { editionId: string }) {
  const { t } = useI18n();
  const attendance = useAttendance(editionId);
  const data = attendance.data;
  return (
    <section class="card" aria-labelledby="attendance-counts">
      <h2 id="attendance-counts">{t('attendanceCounts')}</h2>
      {data === undefined ? (
        <Pending query={attendance} />
      ) : (
        <table class="counts" id="attendance-table">
          <thead>
            <tr>
              <th scope="col">{t('attendancePlace')}</th>
              <th scope="col">{t('attendanceCheckedIn')}</th>
              <th scope="col">{t('attendanceRegistered')}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">{t('scanPlaceEdition')}</th>
              <td>{data.edition.checked_in}</td>
              <td>{data.edition.registered}</td>
            </tr>
            {data.programs.map((program) => (
              <tr key={program.program_id}>
                <th scope="row">{program.name}</th>
                <td>{program.checked_in}</td>
                <td>
                  {program.max_participants === null
                    ? program.registered
                    : t('attendanceOfPlaces', {
                        registered: program.registered,
                        places: program.max_participants,
                      })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A select of the programs, and with `anyLabel` of everywhere (''). */
function PlaceSelect({
  id,
  label,
  editionId,
  value,
  onChange,
  anyLabel,
}: {
  id: string;
  label: string;
  editionId: string;
  value: string;
  onChange: (place: string) => void;
  anyLabel?: string;
}) {
  const programs = useAttendance(editionId).data?.programs ?? [];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(changed) => onChange(changed.currentTarget.value)}>
        {anyLabel === undefined ? null : <option value="">{anyLabel}</option>}
        {programs.map((program) => (
          <option key={program.program_id} value={program.program_id}>
            {program.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function CheckIns({ editionId }: { editionId: string }) {
  const { t } = useI18n();
  const [place, setPlace] = useState('');
  const [page, setPage] = useState(1);
  const programs = useAttendance(editionId).data?.programs ?? [];
  const list = useQuery({
    queryKey: ['check-ins', editionId, place, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/editions/{edition_id}/check-ins', {
          params: {
            path: { edition_id: editionId },
            query: { page, limit: LIMIT, ...(place === '' ? {} : { program_id: place }) },
          },
        }),
      ),
    refetchInterval: EVERY_MS,
    placeholderData: (previous) => previous,
  });
  return (
    <section class="card" aria-labelledby="attendance-check-ins">
      <h2 id="attendance-check-ins">{t('attendanceCheckIns')}</h2>
      <PlaceSelect
        id="check-in-place"
        label={t('attendancePlace')}
        editionId={editionId}
        value={place}
        anyLabel={t('attendanceEverywhere')}
        onChange={(next) => {
          setPlace(next);
          setPage(1);
        }}
      />
      {list.data === undefined ? (
        <Pending query={list} />
      ) : list.data.items.length === 0 ? (
        <p class="muted">{t('scanLatestNone')}</p>
      ) : (
        <>
          <CheckInRows
            id="check-in-list"
            checkIns={list.data.items}
            programName={(id) => programs.find((program) => program.program_id === id)?.name}
          />
          <Paging info={list.data.pagination} onPage={setPage} />
        </>
      )}
    </section>
  );
}

function Participants({ editionId }: { editionId: string }) {
  const { t, when } = useI18n();
  const programs = useAttendance(editionId).data?.programs ?? [];
  const [chosen, setChosen] = useState('');
  const [page, setPage] = useState(1);
  const programId = chosen || programs[0]?.program_id || '';
  const program = programs.find((item) => item.program_id === programId);
  const list = useQuery({
    queryKey: ['participants', programId, page],
    queryFn: () =>
      unwrapPage(
        api.GET('/programs/{program_id}/participants', {
          params: { path: { program_id: programId }, query: { page, limit: LIMIT } },
        }),
      ),
    enabled: programId !== '',
    refetchInterval: EVERY_MS,
    placeholderData: (previous) => previous,
  });
  return (
    <section class="card" aria-labelledby="attendance-participants">
      <h2 id="attendance-participants">{t('attendanceParticipants')}</h2>
      {programs.length === 0 ? (
        <p class="muted">{t('attendanceNoPrograms')}</p>
      ) : (
        <>
          <PlaceSelect
            id="participants-program"
            label={t('attendanceProgram')}
            editionId={editionId}
            value={programId}
            onChange={(next) => {
              setChosen(next);
              setPage(1);
            }}
          />
          {program === undefined ? null : (
            <p id="participants-summary">
              {t('attendanceProgramSummary', {
                registered: program.registered,
                places: program.max_participants ?? t('unlimited'),
                checkedIn: program.checked_in,
              })}
            </p>
          )}
          {list.data === undefined ? (
            <Pending query={list} />
          ) : list.data.items.length === 0 ? (
            <p class="muted">{t('attendanceNoParticipants')}</p>
          ) : (
            <>
              <ul class="rows" id="participant-list">
                {list.data.items.map((person) => (
                  <li key={person.user_id}>
                    <strong>{person.holder_name}</strong>{' '}
                    <span class={`tag ${person.checked_in ? 'tag-reg-confirmed' : ''}`}>
                      {person.checked_in && person.checked_in_at
                        ? t('attendanceCameAt', { when: when(person.checked_in_at) })
                        : t('attendanceNotYet')}
                    </span>
                    <div class="muted">
                      {person.holder_email} · {t('attendanceSignedUp', { when: when(person.signed_up_at) })}
                    </div>
                  </li>
                ))}
              </ul>
              <Paging info={list.data.pagination} onPage={setPage} />
            </>
          )}
        </>
      )}
    </section>
  );
}

export function AttendanceScreen() {
  const { t } = useI18n();
  const route = useEditionRoute();
  const { editionId, role } = route;
  return (
    <>
      <EditionScreenHead route={route} title={t('attendance')} />
      {role === undefined ? null : (
        <>
          <Counts editionId={editionId} />
          <CheckIns editionId={editionId} />
          <Participants editionId={editionId} />
        </>
      )}
    </>
  );
}
