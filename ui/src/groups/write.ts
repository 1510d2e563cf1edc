// Runs a group write and reads the group again past it; the server's refusal (the spec's text)
// has already been shown as a toast by the fetch layer.
import { refreshGroup } from './api';

export async function groupWrite(
  groupId: string | null,
  write: () => Promise<{ position: number }>,
): Promise<boolean> {
  try {
    const { position } = await write();
    await refreshGroup(groupId, position);
    return true;
  } catch {
    return false;
  }
}
