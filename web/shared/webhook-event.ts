/**
 * A webhook event as the server lists it (B40 rows, B41; the operator's O20 and O32 rows add
 * members of their own): one shape read by the console and by the tests that watch deliveries.
 * Times are ms as strings, "" where not yet reached.
 */
export interface WebhookEventRow {
  eventId: string;
  webhookId: string;
  eventType: string;
  objectId: string;
  objectStatus: string;
  status: string;
  attempts: number;
  nextAttemptTime: string;
  createTime: string;
  deliveredTime: string;
  /** The exact JSON body sent. */
  payload: string;
  /** The last attempts, newest first. */
  deliveries: { attempt: number; time: string; url: string; httpStatus: number; durationMs: number; result: string; error: string }[];
}
