import { useRef, useState } from 'react';
import { useT } from '../i18n';
import { uploadMedia } from '../personal/uploadMedia';
import { compressAvatar } from '../settings/avatar';
import { showToast } from '../state/toast';
import { GroupAvatar } from './GroupAvatar';
import { avatarRefusal } from './logic';

/** Picks and uploads a group avatar: an image under 5 MB, no animated gif, cropped square and compressed (quality 80). */
export function AvatarPicker({
  seed,
  name,
  headUrl,
  onChange,
}: {
  seed: string;
  name: string;
  headUrl: string;
  onChange: (headUrl: string) => void;
}) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  async function pick(file: File | undefined) {
    if (!file) return;
    const refusal = avatarRefusal(file);
    if (refusal) {
      showToast(t(refusal), 'error');
      return;
    }
    setUploading(true);
    const compressed = await compressAvatar(file).catch(() => null);
    if (!compressed) showToast(t('upload.failed'), 'error');
    const uploaded = compressed ? await uploadMedia(new File([compressed], 'avatar.jpg', { type: 'image/jpeg' })) : null;
    setUploading(false);
    if (uploaded) onChange(uploaded.filePath);
  }

  return (
    <div className="group-avatar-picker">
      <GroupAvatar group={{ id: seed, name, headUrl }} size={56} />
      <button
        type="button"
        className="button button-secondary"
        disabled={uploading}
        onClick={() => input.current?.click()}
        data-testid="group-avatar-pick"
      >
        {uploading ? t('common.loading') : t('group.pickAvatar')}
      </button>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        hidden
        aria-label={t('group.avatar')}
        onChange={(event) => {
          void pick(event.target.files?.[0]);
          event.target.value = '';
        }}
        data-testid="group-avatar-input"
      />
    </div>
  );
}
