import { useRef, useState } from 'react';
import { useT } from '../i18n';
import { uploadMedia } from '../personal/uploadMedia';
import { showToast } from '../state/toast';
import { GroupAvatar } from './GroupAvatar';
import { avatarRefusal } from './logic';

/** Picks and uploads a group avatar: an image under 5 MB, no animated gif. */
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
    const uploaded = await uploadMedia(file);
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
