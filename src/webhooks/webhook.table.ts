import type { Generated, Selectable } from 'kysely';

export interface WebhookEndpointTable {
  id: string;
  project_id: string;
  url: string;
  events: string[];
  secret: string;
  /** The secret before the last roll; it signs beside `secret` until previous_secret_expires_at. */
  previous_secret: Generated<string | null>;
  previous_secret_expires_at: Generated<Date | null>;
  status: 'active' | 'disabled';
  created_at: Date;
  deleted_at: Date | null;
  /** The events sequence when the endpoint was added: it receives the events written after (0009). */
  events_after: Generated<string>;
}

export interface WebhookDeliveryTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: Date;
  locked_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookAttemptTable {
  id: Generated<string>;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  response_status: number | null;
  error: string | null;
  next_attempt_at: Date | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveryTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptTable>;

declare module '../db/schema.js' {
  interface Database {
    webhook_endpoints: WebhookEndpointTable;
    webhook_deliveries: WebhookDeliveryTable;
    webhook_attempts: WebhookAttemptTable;
  }
}
