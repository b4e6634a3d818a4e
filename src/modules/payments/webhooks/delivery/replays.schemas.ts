/** Schemas of a replay of an endpoint's deliveries (docs/reference/webhooks.md, "Replaying deliveries"). */
import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../../../kernel/http/schemas.ts';

export const REPLAY_JOB = 'webhooks.replay' as const;

const Selection = Type.Union([Type.Literal('failed'), Type.Literal('delivered'), Type.Literal('all')], {
  description:
    'which deliveries to send again: `failed` (the default), `delivered`, or `all` (both); a ' +
    '`pending` delivery is never replayed, it is owed an attempt already',
});

export const ReplayBody = Type.Object(
  {
    since: DateTime({ description: 'replay deliveries created at or after this moment' }),
    until: Type.Optional(
      DateTime({ description: 'and before this one (default: now); not earlier than `since`' }),
    ),
    status: Type.Optional(Selection),
  },
  {
    additionalProperties: false,
    examples: [{ since: '2026-11-21T00:00:00.000Z', until: '2026-11-22T10:00:00.000Z', status: 'failed' }],
  },
);
export type ReplayBody = Static<typeof ReplayBody>;

export const ReplayJob = Type.Object(
  {
    id: Uuid({ description: 'the replay, and its job' }),
    kind: Type.Literal(REPLAY_JOB),
    endpoint_id: Uuid(),
    since: DateTime(),
    until: DateTime(),
    delivery_status: Selection,
    status: Type.Union(
      [Type.Literal('queued'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed')],
      {
        description:
          '`queued`, `running`, `completed` (every matching delivery looked at) or `failed` ' +
          '(`last_error` says why: the endpoint was disabled meanwhile)',
      },
    ),
    total: Type.Integer({ description: 'deliveries that matched when the replay started' }),
    done: Type.Integer({ description: 'of those, how many it has looked at' }),
    queued: Type.Integer({ description: 'of those, how many it queued for a new attempt' }),
    skipped: Type.Integer({
      description: 'of those, how many no longer matched when their turn came (retried or attempted since)',
    }),
    last_error: Nullable(Type.String()),
    created_at: DateTime(),
    started_at: Nullable(DateTime()),
    finished_at: Nullable(DateTime()),
  },
  { title: 'WebhookReplayJob' },
);
export type ReplayJob = Static<typeof ReplayJob>;

export const REPLAY_EXAMPLE: ReplayJob = {
  id: '01937a50-9999-7000-8000-000000000090',
  kind: REPLAY_JOB,
  endpoint_id: '01937a50-6666-7000-8000-000000000060',
  since: '2026-11-21T00:00:00.000Z',
  until: '2026-11-22T10:00:00.000Z',
  delivery_status: 'failed',
  status: 'running',
  total: 1240,
  done: 500,
  queued: 498,
  skipped: 2,
  last_error: null,
  created_at: '2026-11-22T10:00:00.000Z',
  started_at: '2026-11-22T10:00:00.080Z',
  finished_at: null,
};

export const QUEUED_REPLAY_EXAMPLE: ReplayJob = {
  ...REPLAY_EXAMPLE,
  status: 'queued',
  total: 0,
  done: 0,
  queued: 0,
  skipped: 0,
  started_at: null,
};

export const ReplayAccepted = Type.Object(
  { job_id: Uuid(), job: ReplayJob },
  { title: 'WebhookReplayAccepted' },
);
