import { currentAuth } from '../auth/authState';
import { currentLanguage, t } from '../i18n';
import { showToast } from '../state/toast';
import type { Envelope } from './types';

export const HTTP_TIMEOUT_MS = 30_000;

/** A failed call: `code` is the envelope code, or 'timeout' / 'network' when no answer came. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, message: string, status: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

export interface RequestOptions {
  body?: unknown;
  timeoutMs?: number;
  /** true: the caller shows the error itself; otherwise the envelope's info becomes an error toast */
  quiet?: boolean;
  /** a bearer other than the signed-in member's (the admin page's operator or auditor token) */
  token?: string;
}

let onUnauthorized: () => void = () => undefined;

/** Registers what a 401 on an authenticated call does (log out with 'login expired'). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const auth = options.token === undefined ? currentAuth() : null;
  const token = options.token ?? auth?.token;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLanguage(),
  };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? HTTP_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: controller.signal,
    });
  } catch (cause) {
    const timedOut = controller.signal.aborted;
    throw fail(new ApiError(timedOut ? 'timeout' : 'network', t('common.requestFailed'), 0), options, cause);
  } finally {
    clearTimeout(timer);
  }

  const envelope = await readEnvelope<T>(response);
  if (response.status === 401 && auth) {
    onUnauthorized();
    throw new ApiError('401', t('auth.expired'), 401);
  }
  if (!envelope || envelope.code !== '200') {
    const info = envelope?.info || t('common.requestFailed');
    throw fail(new ApiError(envelope?.code ?? String(response.status), info, response.status), options);
  }
  return envelope.data;
}

async function readEnvelope<T>(response: Response): Promise<Envelope<T> | null> {
  try {
    const body = (await response.json()) as Envelope<T>;
    return body && typeof body.code === 'string' ? body : null;
  } catch {
    return null;
  }
}

function fail(error: ApiError, options: RequestOptions, cause?: unknown): ApiError {
  if (cause !== undefined) (error as { cause?: unknown }).cause = cause;
  if (!options.quiet) showToast(error.message, 'error');
  return error;
}

/** swr's fetcher: keys are GET paths; errors are shown by the component that reads them. */
export function getFetcher<T>(path: string): Promise<T> {
  return request<T>('GET', path, { quiet: true });
}
