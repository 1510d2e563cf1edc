import { useCallback, useRef, useState } from 'react';
import type { AdminApi, AuditDirectory } from './api';
import type { Names } from './describe';
import { MAX_IDS } from './names';

/**
 * The names of the members and groups a view shows, asked of the audit directory for the ids not
 * known yet (each call is an access the history records, so an id is asked once).
 */
export function useNames(api: AdminApi, run: <T>(call: () => Promise<T>) => Promise<T | undefined>) {
  const [names, setNames] = useState<Names>(() => ({ members: new Map(), groups: new Map() }));
  const asked = useRef(new Set<string>());

  const learn = useCallback((dir: AuditDirectory) => {
    setNames((known) => {
      const members = new Map(known.members);
      const groups = new Map(known.groups);
      for (const m of dir.members) members.set(m.id, m);
      for (const g of dir.groups) groups.set(g.id, g);
      return { members, groups };
    });
  }, []);

  const resolve = useCallback(
    async (ids: { members: string[]; groups: string[] }) => {
      const fresh = (list: string[], kind: string) => [...new Set(list)].filter((id) => !asked.current.has(`${kind}:${id}`));
      const members = fresh(ids.members, 'm');
      const groups = fresh(ids.groups, 'g');
      for (const id of members) asked.current.add(`m:${id}`);
      for (const id of groups) asked.current.add(`g:${id}`);
      for (let i = 0; i < Math.max(members.length, groups.length); i += MAX_IDS) {
        const dir = await run(() => api.directory({ members: members.slice(i, i + MAX_IDS), groups: groups.slice(i, i + MAX_IDS) }));
        if (dir) learn(dir);
      }
    },
    [api, run, learn],
  );

  /** Finds a member by exact account or phone: null when the tenant has none, undefined when the call failed. */
  const find = useCallback(
    async (keyword: string) => {
      const dir = await run(() => api.directory({ find: keyword.trim() }));
      if (!dir) return undefined;
      learn(dir);
      return dir.members[0] ?? null;
    },
    [api, run, learn],
  );

  return { names, resolve, find };
}
