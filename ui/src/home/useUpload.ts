import { useCallback, useRef, useState } from 'react';
import { currentAuth } from '../auth/authState';
import { logout } from '../auth/logout';
import { sendContent } from '../chat/send';
import {
  UploadError,
  measure,
  mediaContent,
  messageTypeFor,
  percent,
  precheck,
  uploadFile,
  type Intent,
} from '../chat/upload';
import { currentLanguage, t } from '../i18n';
import { showToast } from '../state/toast';

/** An upload under way, or one that timed out or failed and may be tried again. */
export interface UploadStatus {
  fileName: string;
  phase: 'uploading' | 'timeout' | 'failed';
  percent: number;
}

/**
 * Uploads a picked file, then sends it to peerId as a media message. A cancelled upload says so;
 * one that timed out (300 s) or failed keeps its file so that it can be uploaded again.
 */
export function useUpload(peerId: string) {
  const [status, setStatus] = useState<UploadStatus | null>(null);
  const controller = useRef<AbortController | null>(null);
  const last = useRef<{ file: File; intent: Intent; peerId: string } | null>(null);

  const start = useCallback(
    async (file: File, intent: Intent, to = peerId) => {
      const auth = currentAuth();
      if (!auth || controller.current) return;
      const refusal = precheck(file);
      if (refusal) {
        showToast(t(refusal), 'error');
        return;
      }
      last.current = { file, intent, peerId: to };
      const abort = new AbortController();
      controller.current = abort;
      setStatus({ fileName: file.name, phase: 'uploading', percent: 0 });
      const measured = measure(file);
      try {
        const uploaded = await uploadFile(file, file.name, {
          token: auth.token,
          language: currentLanguage(),
          signal: abort.signal,
          onProgress: (loaded, total) =>
            setStatus({ fileName: file.name, phase: 'uploading', percent: percent(loaded, total) }),
          texts: {
            timeout: t('upload.timeout'),
            cancelled: t('upload.cancelled'),
            network: t('upload.network'),
            failed: t('upload.failed'),
          },
        });
        sendContent(to, messageTypeFor(uploaded.contentType, intent), mediaContent(uploaded, await measured));
        last.current = null;
        setStatus(null);
      } catch (error) {
        const failure = error instanceof UploadError ? error : new UploadError('network', t('upload.failed'));
        if (failure.reason === 'unauthorized') {
          setStatus(null);
          logout({ notice: t('auth.expired'), callServer: false });
        } else if (failure.reason === 'cancelled') {
          setStatus(null);
          showToast(failure.message, 'info');
        } else {
          setStatus({ fileName: file.name, phase: failure.reason === 'timeout' ? 'timeout' : 'failed', percent: 0 });
          showToast(failure.message, 'error');
        }
      } finally {
        controller.current = null;
      }
    },
    [peerId],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const retry = useCallback(() => {
    const again = last.current;
    if (again) void start(again.file, again.intent, again.peerId);
  }, [start]);
  const dismiss = useCallback(() => {
    last.current = null;
    setStatus(null);
  }, []);

  return { status, start, cancel, retry, dismiss };
}
