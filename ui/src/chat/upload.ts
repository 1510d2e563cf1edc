// Uploads for media messages: POST /v1/sso/im/upload/v1 (multipart field `file`) with progress,
// cancel and the spec's 300 s timeout; the server's answer names the stored file, which a
// Picture, VideoMsg, VoiceMsg or File message carries as a JSON content. Nothing here touches
// React or the DOM beyond XMLHttpRequest and FormData, which tests replace.
import type { MessageKey } from '../i18n';

export const UPLOAD_PATH = '/v1/sso/im/upload/v1';
/** spec messaging.md section 9: file upload time-out */
export const UPLOAD_TIMEOUT_MS = 300_000;
/** spec: a picture must be under 5MB (5,000,000 bytes) */
export const MAX_PICTURE_BYTES = 4_999_999;
/** the server's cap for any other file (docs/api-skeleton.md) */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;
/** where the server serves uploads; media URLs are only ever built below it */
export const FILE_PATH_PREFIX = '/v1/sso/im/file/';

export type MediaType = 'Picture' | 'VideoMsg' | 'VoiceMsg' | 'File';
export const MEDIA_TYPES: readonly string[] = ['Picture', 'VideoMsg', 'VoiceMsg', 'File'];

/** What the user picked the file as: the picture/video button, the file button, the voice button. */
export type Intent = 'media' | 'file' | 'voice';

export interface Uploaded {
  filePath: string;
  fileName: string;
  size: number;
  contentType: string;
}

/** The content of a media message, as JSON text. */
export interface MediaContent extends Uploaded {
  width?: number;
  height?: number;
  /** seconds */
  duration?: number;
}

/** Why an upload ended without a file: each has its own message (spec messaging.md section 8). */
export type UploadFailure = 'timeout' | 'cancelled' | 'refused' | 'network' | 'unauthorized';

export class UploadError extends Error {
  readonly reason: UploadFailure;
  readonly status: number;

  constructor(reason: UploadFailure, message: string, status = 0) {
    super(message);
    this.name = 'UploadError';
    this.reason = reason;
    this.status = status;
  }
}

/** The part of XMLHttpRequest an upload uses. */
export interface UploadXhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: unknown): void;
  abort(): void;
  timeout: number;
  status: number;
  responseText: string;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  ontimeout: (() => void) | null;
  onabort: (() => void) | null;
}

export interface UploadOptions {
  token: string;
  language: string;
  /** chat (default), avatar or feedback */
  type?: 'chat' | 'avatar' | 'feedback';
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** texts for failures without a server answer */
  texts: Record<'timeout' | 'cancelled' | 'network' | 'failed', string>;
  createXhr?: () => UploadXhr;
  createForm?: (file: Blob, fileName: string) => unknown;
}

function defaultForm(file: Blob, fileName: string): unknown {
  const form = new FormData();
  form.append('file', file, fileName);
  return form;
}

/** Uploads one file; resolves with the server's description of the stored file. */
export function uploadFile(file: Blob, fileName: string, options: UploadOptions): Promise<Uploaded> {
  return new Promise((resolve, reject) => {
    const xhr = options.createXhr ? options.createXhr() : (new XMLHttpRequest() as unknown as UploadXhr);
    const query = options.type && options.type !== 'chat' ? `?type=${options.type}` : '';
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbortSignal);
      outcome();
    };
    const onAbortSignal = () => xhr.abort();

    xhr.open('POST', UPLOAD_PATH + query);
    xhr.setRequestHeader('Authorization', `Bearer ${options.token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', options.language);
    xhr.timeout = options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded, event.total);
    };
    xhr.ontimeout = () => finish(() => reject(new UploadError('timeout', options.texts.timeout)));
    xhr.onabort = () => finish(() => reject(new UploadError('cancelled', options.texts.cancelled)));
    xhr.onerror = () => finish(() => reject(new UploadError('network', options.texts.network)));
    xhr.onload = () =>
      finish(() => {
        const envelope = parseEnvelope(xhr.responseText);
        if (xhr.status === 401) {
          reject(new UploadError('unauthorized', envelope?.info || options.texts.failed, 401));
        } else if (xhr.status === 200 && envelope?.code === '200' && isUploaded(envelope.data)) {
          resolve(envelope.data);
        } else {
          reject(new UploadError('refused', envelope?.info || options.texts.failed, xhr.status));
        }
      });

    if (options.signal?.aborted) {
      finish(() => reject(new UploadError('cancelled', options.texts.cancelled)));
      return;
    }
    options.signal?.addEventListener('abort', onAbortSignal);
    xhr.send((options.createForm ?? defaultForm)(file, fileName));
  });
}

function parseEnvelope(text: string): { code: string; info: string; data: unknown } | null {
  try {
    const body = JSON.parse(text) as { code?: unknown; info?: unknown; data?: unknown };
    if (typeof body?.code !== 'string') return null;
    return { code: body.code, info: typeof body.info === 'string' ? body.info : '', data: body.data };
  } catch {
    return null;
  }
}

function isUploaded(value: unknown): value is Uploaded {
  const v = value as Uploaded | null;
  return (
    !!v &&
    typeof v.filePath === 'string' &&
    v.filePath.startsWith(FILE_PATH_PREFIX) &&
    typeof v.fileName === 'string' &&
    typeof v.size === 'number' &&
    typeof v.contentType === 'string'
  );
}

/** A refusal the client can tell before uploading, as a message key; null when the file may go. */
export function precheck(file: { size: number; type: string }): MessageKey | null {
  if (file.size === 0) return 'upload.empty';
  // The server sniffs a picture as one whichever button picked it, and caps it alike.
  if (file.type.startsWith('image/') && file.size > MAX_PICTURE_BYTES) return 'upload.pictureTooLarge';
  if (file.size > MAX_FILE_BYTES) return 'upload.fileTooLarge';
  return null;
}

/** The message type of an uploaded file, from the server's sniffed content type and the user's pick. */
export function messageTypeFor(contentType: string, intent: Intent): MediaType {
  if (intent === 'file') return 'File';
  if (intent === 'voice') {
    return contentType.startsWith('audio/') || contentType === 'video/webm' || contentType === 'video/mp4'
      ? 'VoiceMsg'
      : 'File';
  }
  if (contentType.startsWith('image/')) return 'Picture';
  if (contentType.startsWith('video/')) return 'VideoMsg';
  if (contentType.startsWith('audio/')) return 'VoiceMsg';
  return 'File';
}

/** Pixels and seconds the browser measured. */
export interface Measures {
  width?: number;
  height?: number;
  duration?: number;
}

/** The JSON content of a media message. */
export function mediaContent(uploaded: Uploaded, extra: Measures = {}): string {
  const content: MediaContent = { ...uploaded };
  if (extra.width && extra.height && extra.width > 0 && extra.height > 0) {
    content.width = Math.round(extra.width);
    content.height = Math.round(extra.height);
  }
  if (extra.duration && Number.isFinite(extra.duration) && extra.duration > 0) {
    content.duration = Math.round(extra.duration * 10) / 10;
  }
  return JSON.stringify(content);
}

/** Reads a media message's content; null when it is not one this client can show. */
export function parseMediaContent(content: string): MediaContent | null {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  if (!isUploaded(value)) return null;
  const v = value as MediaContent;
  const number = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined);
  return {
    filePath: v.filePath,
    fileName: v.fileName,
    size: v.size,
    contentType: v.contentType,
    width: number(v.width),
    height: number(v.height),
    duration: number(v.duration),
  };
}

const STORED_PATH = /^\/v1\/sso\/im\/file\/[a-z0-9]{2,16}\/[0-9a-f]{32}\.[a-z0-9]{1,5}$/;

/** The URL of an uploaded file carrying the token, for <img>, <video>, <audio> and links. */
export function mediaUrl(filePath: string, token: string): string | null {
  if (!STORED_PATH.test(filePath)) return null;
  return `${filePath}?token=${encodeURIComponent(token)}`;
}

/** A size for people: 999 B, 1.5 KB, 12 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** Progress as a whole percentage. */
export function percent(loaded: number, total: number): number {
  if (total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** Width and height of a picture, duration of a video or a recording; {} when the browser cannot tell. */
export function measure(file: File, timeoutMs = 5000): Promise<Measures> {
  const url = URL.createObjectURL(file);
  const done = new Promise<Measures>((resolve) => {
    if (file.type.startsWith('image/')) {
      const image = new Image();
      image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
      image.onerror = () => resolve({});
      image.src = url;
    } else if (file.type.startsWith('video/') || file.type.startsWith('audio/')) {
      const media = document.createElement(file.type.startsWith('video/') ? 'video' : 'audio');
      media.preload = 'metadata';
      media.onloadedmetadata = () => {
        const video = media as HTMLVideoElement;
        resolve({
          width: video.videoWidth || undefined,
          height: video.videoHeight || undefined,
          duration: media.duration,
        });
      };
      media.onerror = () => resolve({});
      media.src = url;
    } else {
      resolve({});
    }
  });
  const timeout = new Promise<Measures>((resolve) => setTimeout(() => resolve({}), timeoutMs));
  return Promise.race([done, timeout]).finally(() => URL.revokeObjectURL(url));
}
