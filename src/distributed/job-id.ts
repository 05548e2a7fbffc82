/**
 * A call's BullMQ job id, `<runId>.<callId>`: unique across runs, the same for every attempt of
 * the call (so it is the idempotency key a tool can record its side effects under). BullMQ
 * refuses ids with ':' and ids that read as integers; the call id is percent-encoded where it
 * would break either (':' and '%'), and the '.' after a run id (which has none) keeps it from
 * ever being an integer.
 */
export function jobIdOf(runId: string, callId: string): string {
  return `${runId}.${callId.replace(/[%:]/g, (c) => (c === ':' ? '%3A' : '%25'))}`;
}
