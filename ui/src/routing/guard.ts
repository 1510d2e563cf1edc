// Hash routes and the routing guard of spec accounts.md section 2, as pure functions.

export type RouteName =
  | 'landing'
  | 'login'
  | 'register'
  | 'resetPassword'
  | 'userpolicy'
  | 'hiddenagreement'
  | 'home'
  | 'setting'
  | 'favorite'
  | 'massSend'
  | 'notices'
  | 'historyPage'
  | 'topup'
  | 'chatGpt'
  | 'unknown';

export interface Route {
  name: RouteName;
  query: URLSearchParams;
  /** historyPage: the friend member id or group id of /historyPage/{id} */
  id?: string;
}

/** The routes of the app path (/1/{memberId}/) the guard lets render. */
const APP_ROUTES: RouteName[] = ['home', 'setting', 'favorite', 'massSend', 'notices', 'historyPage', 'topup', 'chatGpt'];

const AUTH_ROUTES: RouteName[] = ['login', 'register', 'resetPassword', 'userpolicy', 'hiddenagreement'];

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [pathPart, queryPart = ''] = raw.split('?', 2);
  const path = pathPart.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(queryPart);
  switch (path) {
    case '/':
      return { name: 'home', query };
    case '/landing':
      return { name: 'landing', query };
    case '/login':
      return { name: 'login', query };
    case '/register':
      return { name: 'register', query };
    case '/resetPassword':
      return { name: 'resetPassword', query };
    case '/userpolicy':
      return { name: 'userpolicy', query };
    case '/hiddenagreement':
      return { name: 'hiddenagreement', query };
    case '/setting':
      return { name: 'setting', query };
    case '/favorite':
      return { name: 'favorite', query };
    case '/massSend':
      return { name: 'massSend', query };
    case '/notices':
      return { name: 'notices', query };
    case '/topup':
      return { name: 'topup', query };
    case '/chatGpt':
      return { name: 'chatGpt', query };
    default: {
      const id = path.match(/^\/historyPage\/([^/]+)$/)?.[1];
      return id ? { name: 'historyPage', query, id: decodeURIComponent(id) } : { name: 'unknown', query };
    }
  }
}

/** The app path of a signed-in member: /1/{memberId}/ (the server serves index.html there). */
export function appPathFor(memberId: string): string {
  return `/1/${encodeURIComponent(memberId)}/`;
}

/**
 * True when the page path is the app path of this member: four segments ('', 0|1, member id, '')
 * whose first is 0 or 1 and whose member segment is the signed-in member.
 */
export function isAppPath(pathname: string, memberId: string | null): boolean {
  if (!memberId) return false;
  const segments = pathname.split('/');
  return (
    segments.length === 4 &&
    segments[0] === '' &&
    (segments[1] === '0' || segments[1] === '1') &&
    decodeURIComponent(segments[2]) === memberId &&
    segments[3] === ''
  );
}

export interface GuardInput {
  route: Route;
  pathname: string;
  /** the signed-in member's id, null when nobody is signed in */
  memberId: string | null;
}

export type GuardResult = { kind: 'render' } | { kind: 'redirect'; hash: string };

export function guard({ route, pathname, memberId }: GuardInput): GuardResult {
  const loggedIn = memberId !== null;
  const inApp = isAppPath(pathname, memberId);
  if (AUTH_ROUTES.includes(route.name)) {
    return loggedIn ? { kind: 'redirect', hash: '#/landing' } : { kind: 'render' };
  }
  if (route.name === 'landing') {
    return inApp ? { kind: 'redirect', hash: '#/' } : { kind: 'render' };
  }
  if (!inApp) return { kind: 'redirect', hash: '#/landing' };
  return APP_ROUTES.includes(route.name) ? { kind: 'render' } : { kind: 'redirect', hash: '#/' };
}
