import { useAtomValue } from 'jotai';
import { authAtom } from '../auth/authState';
import { mediaUrl } from '../chat/upload';
import { Avatar } from '../components/Avatar';

/**
 * A group's picture (an uploaded file, fetched with the token), else its coloured initial. Any other
 * address a group may have kept from before the server checked avatars is never fetched.
 */
export function GroupAvatar({ group, size }: { group: { id: string; name: string; headUrl: string }; size?: number }) {
  const token = useAtomValue(authAtom)?.token ?? '';
  const url = mediaUrl(group.headUrl, token) ?? '';
  return <Avatar name={group.name} headUrl={url} seed={group.id} size={size} />;
}
