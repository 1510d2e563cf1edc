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
  | 'unknown';

export interface Route {
  name: RouteName;
  query: URLSearchParams;
}

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
    default:
      return { name: 'unknown', query };
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
  return route.name === 'home' || route.name === 'setting' ? { kind: 'render' } : { kind: 'redirect', hash: '#/' };
}
