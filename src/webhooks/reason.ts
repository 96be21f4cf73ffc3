/**
 * Why an attempt failed, in words, for the log and the dashboard's delivery log: the sender's reason
 * when no response came (a refused address, a refused connection, the timeout), else the status the
 * receiver answered. The API keeps the two apart (`error` is null when a status says it).
 */
export function failureReason(status: number | null, error: string | null): string {
  if (error) return error;
  if (status === null) return 'No response';
  return `HTTP ${status} from the receiver: a 2xx is needed`;
}
