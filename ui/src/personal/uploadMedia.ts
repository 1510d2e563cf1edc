// Uploads a picked file for the personal views: the mass-send attachment and new stickers.
import { currentAuth } from '../auth/authState';
import { measure, mediaContent, messageTypeFor, precheck, uploadFile, UploadError, type MediaType } from '../chat/upload';
import { currentLanguage, t } from '../i18n';
import { showToast } from '../state/toast';

export interface UploadedMedia {
  msgType: MediaType;
  content: string;
  filePath: string;
  fileName: string;
  width?: number;
  height?: number;
}

/** Uploads file; resolves null after showing why it could not be uploaded. */
export async function uploadMedia(file: File): Promise<UploadedMedia | null> {
  const auth = currentAuth();
  if (!auth) return null;
  const refusal = precheck(file);
  if (refusal) {
    showToast(t(refusal), 'error');
    return null;
  }
  try {
    const measured = measure(file);
    const uploaded = await uploadFile(file, file.name, {
      token: auth.token,
      language: currentLanguage(),
      texts: {
        timeout: t('upload.timeout'),
        cancelled: t('upload.cancelled'),
        network: t('upload.network'),
        failed: t('upload.failed'),
      },
    });
    const size = await measured;
    return {
      msgType: messageTypeFor(uploaded.contentType, 'media'),
      content: mediaContent(uploaded, size),
      filePath: uploaded.filePath,
      fileName: uploaded.fileName,
      width: size.width ? Math.round(size.width) : undefined,
      height: size.height ? Math.round(size.height) : undefined,
    };
  } catch (error) {
    showToast(error instanceof UploadError ? error.message : t('upload.failed'), 'error');
    return null;
  }
}
