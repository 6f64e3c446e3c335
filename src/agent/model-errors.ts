/** The HTTP status a model call's error carries, when the provider gave one. */
export function modelErrorStatus(err: unknown): number | undefined {
  const e = err as { statusCode?: unknown; status?: unknown } | undefined;
  return typeof e?.statusCode === 'number' ? e.statusCode : typeof e?.status === 'number' ? e.status : undefined;
}

/** A model call's error as one of Claude Code's StopFailure kinds, from the HTTP status when the provider gave one. */
export function modelErrorKind(err: unknown): string {
  const status = modelErrorStatus(err);
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status === 401 || status === 403) return 'authentication_failed';
  if (status === 402) return 'billing_error';
  if (status === 404) return 'model_not_found';
  if (status === 400 || status === 413 || status === 422) return 'invalid_request';
  if (status !== undefined && status >= 500) return 'server_error';
  return 'unknown';
}
