import { Type } from '@sinclair/typebox';
import { EVENT_TYPES, type EventType as WebhookEventType } from '../events/catalogue.js';
import { nullable, StringEnum, Timestamp } from '../http/schemas.js';
import type { WebhookAttemptRow, WebhookEndpointRow } from './webhook.table.js';

/** What the admin API says about endpoints and their delivery log; the mappers are the only way to it. */
export const EventTypeSchema = StringEnum(EVENT_TYPES);

export const EndpointSchema = Type.Object(
  {
    id: Type.String({ examples: ['we_5tGm2Qz8LpXc4Vb7Nk1Rw9Hd'] }),
    project_id: Type.String(),
    url: Type.String({ examples: ['https://shop.example/webhooks/paydesk'] }),
    events: Type.Array(EventTypeSchema, {
      description: 'The event types sent to this endpoint; empty means all of them, new ones included',
    }),
    status: StringEnum(['active', 'disabled', 'deleted']),
    created_at: Timestamp,
  },
  { title: 'WebhookEndpoint' },
);

export const AttemptSchema = Type.Object(
  {
    event_id: Type.String({ examples: ['evt_8nQ2Lx7VcR4kPz9Wm3Tb6Yd1'] }),
    type: EventTypeSchema,
    attempt: Type.Integer({ minimum: 1, description: '1 for the first try of a delivery' }),
    outcome: StringEnum(['succeeded', 'retrying', 'failed'], {
      description: 'retrying: another attempt follows at next_attempt_at',
    }),
    response_status: nullable(Type.Integer({ description: 'null when no response came' })),
    duration_ms: Type.Integer({ minimum: 0 }),
    error: nullable(Type.String({ description: 'Why the attempt failed, when no status says it' })),
    attempted_at: Timestamp,
    next_attempt_at: nullable(Timestamp),
  },
  { title: 'WebhookAttempt' },
);

export function toEndpoint(row: WebhookEndpointRow) {
  return {
    id: row.id,
    project_id: row.project_id,
    url: row.url,
    events: row.events as WebhookEventType[],
    status: row.deleted_at ? ('deleted' as const) : row.status,
    created_at: row.created_at.toISOString(),
  };
}

/** An attempt row of the delivery log, with its event's type joined in. */
export type AttemptRow = Omit<WebhookAttemptRow, 'id' | 'delivery_id' | 'endpoint_id'> & { type: string };

export function toAttempt(row: AttemptRow) {
  const ok = row.response_status !== null && row.response_status >= 200 && row.response_status < 300;
  return {
    event_id: row.event_id,
    type: row.type as WebhookEventType,
    attempt: row.attempt,
    outcome: ok ? ('succeeded' as const) : row.next_attempt_at ? ('retrying' as const) : ('failed' as const),
    response_status: row.response_status,
    duration_ms: row.duration_ms,
    error: row.error,
    attempted_at: row.started_at.toISOString(),
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
  };
}

export const RedeliverySchema = Type.Object(
  {
    event_id: Type.String(),
    type: EventTypeSchema,
    queued: Type.Array(
      Type.Object({
        endpoint_id: Type.String(),
        url: Type.String(),
        series: StringEnum(['new', 'brought_forward'], {
          description: 'new: attempts start again at 1; brought_forward: the open series tries now',
        }),
      }),
      { description: 'Every endpoint the event is now queued for; deleted endpoints are left out' },
    ),
  },
  { title: 'Redelivery' },
);

export function toRedelivery(
  event: { id: string; type: string },
  endpoints: ReadonlyArray<{ id: string; url: string; open: boolean }>,
) {
  return {
    event_id: event.id,
    type: event.type as WebhookEventType,
    queued: endpoints.map((e) => ({
      endpoint_id: e.id,
      url: e.url,
      series: e.open ? ('brought_forward' as const) : ('new' as const),
    })),
  };
}

/** A new endpoint: POST /v1/admin/projects/{id}/webhook-endpoints and the dashboard's "Add endpoint". */
export const NewEndpointSchema = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'https:// on a public address (http:// to a private one only with PAYDESK_WEBHOOK_ALLOW_PRIVATE=true)',
    }),
    events: Type.Optional(
      nullable(
        Type.Array(EventTypeSchema, {
          uniqueItems: true,
          description: 'The event types to send; absent, null or empty means all',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
