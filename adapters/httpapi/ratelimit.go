package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Rate limits, each kept in memory per server node and bounded to
// maxLimiterKeys keys.
//
//   - login and password reset: 20 per minute per client address; 10 wrong
//     passwords for an account nobody holds, by its normalised spelling, in
//     15 minutes refuse its logins until the window ends, as the member's
//     stream locks a member out (member.MaxLoginFailures);
//   - SMS codes: 10 per 10 minutes per client address (per phone, the
//     phone's code stream allows one a minute and five an hour);
//   - isMobileRegister: 60 per minute per client address;
//   - friend requests: a second request to the same member within 200 ms
//     of the first is refused (a double submit).
//
// Loopback clients (the server's own tests and benchmarks, or a proxy that
// does not forward the address) are not limited per address.
var (
	loginPerIP        = limit{n: 20, window: time.Minute}
	unknownLogins     = limit{n: member.MaxLoginFailures, window: member.LoginLockWindow}
	smsPerIP          = limit{n: 10, window: 10 * time.Minute}
	lookupPerIP       = limit{n: 60, window: time.Minute}
	friendRequestLock = limit{n: 1, window: 200 * time.Millisecond}
)

// maxLimiterKeys bounds the keys one limiter remembers.
const maxLimiterKeys = 100_000

type limit struct {
	n      int
	window time.Duration
}

// limiter counts events per key in fixed windows.
type limiter struct {
	limit
	max int
	now func() time.Time

	mu   sync.Mutex
	keys map[string]*window
}

type window struct {
	start time.Time
	count int
}

func newLimiter(l limit) *limiter {
	return &limiter{limit: l, max: maxLimiterKeys, now: time.Now, keys: map[string]*window{}}
}

// full reports whether key has used its window up, without counting.
func (l *limiter) full(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.keys[key]
	return w != nil && l.now().Sub(w.start) < l.window && w.count >= l.n
}

// take counts one event of key and reports whether it is within the limit.
func (l *limiter) take(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	w := l.keys[key]
	if w == nil || now.Sub(w.start) >= l.window {
		if w == nil && len(l.keys) >= l.max {
			l.evict(now)
		}
		w = &window{start: now}
		l.keys[key] = w
	}
	if w.count >= l.n {
		return false
	}
	w.count++
	return true
}

// evict drops the ended windows, and when that is not enough an arbitrary
// tenth of the keys: memory stays bounded under a flood of new keys.
func (l *limiter) evict(now time.Time) {
	for k, w := range l.keys {
		if now.Sub(w.start) >= l.window {
			delete(l.keys, k)
		}
	}
	drop := len(l.keys) - l.max + l.max/10 + 1
	for k := range l.keys {
		if drop <= 0 {
			break
		}
		delete(l.keys, k)
		drop--
	}
}

func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}

var extractIP = echo.ExtractIPFromXFFHeader()

// clientIP is the client's address: the direct peer's, or the one a proxy
// on a loopback, link-local or private address forwarded.
func clientIP(c echo.Context) string { return extractIP(c.Request()) }

func limitedAddress(ip string) bool {
	parsed := net.ParseIP(ip)
	return parsed != nil && !parsed.IsLoopback()
}

// limits are the limiters of one API.
type limits struct {
	loginIP, unknownLogins, smsIP, lookupIP, friendRequest *limiter
}

func newLimits() *limits {
	return &limits{
		loginIP: newLimiter(loginPerIP), unknownLogins: newLimiter(unknownLogins),
		smsIP: newLimiter(smsPerIP), lookupIP: newLimiter(lookupPerIP),
		friendRequest: newLimiter(friendRequestLock),
	}
}

// withLimits wraps the handlers of the limited routes.
func (a *API) withLimits(rs []route) []route {
	l := newLimits()
	for i := range rs {
		r := &rs[i]
		next := r.handle
		switch r.path {
		case "/member/memberInfo/login":
			r.handle = l.login(a.unknownLoginKey, next)
		case "/member/memberInfo/forgetPassword":
			r.handle = l.perIP(l.loginIP, fault.MsgTooManyAttempts, next)
		case "/member/sms/send":
			r.handle = l.perIP(l.smsIP, fault.MsgSMSTooManyToday, next)
		case "/member/memberInfo/isMobileRegister":
			r.handle = l.perIP(l.lookupIP, fault.MsgTooManyAttempts, next)
		case "/chat/applyInfo/build":
			r.handle = l.friendRequestLock(next)
		}
	}
	return rs
}

type handler = func(echo.Context, commands.Principal) error

func tooMany(key string) error { return fault.New(fault.RateLimited, key) }

func (l *limits) perIP(lim *limiter, key string, next handler) handler {
	return func(c echo.Context, p commands.Principal) error {
		if ip := clientIP(c); limitedAddress(ip) && !lim.take(ip) {
			return tooMany(key)
		}
		return next(c, p)
	}
}

// peekBody reads the request's JSON body into v and puts it back for the
// handler; a body that cannot be read or decoded is left to the handler.
func peekBody(c echo.Context, v any) {
	req := c.Request()
	raw, err := io.ReadAll(req.Body)
	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(raw), errReader{err}))
	if err == nil {
		_ = json.Unmarshal(raw, v)
	}
}

// errReader replays a read failure after the bytes read before it.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

// unknownLoginKey names an account nobody holds, "" for a member's
// (commands.App.UnknownLoginKey).
type unknownLoginKey func(ctx context.Context, tenant, account string) (string, error)

func (a *API) unknownLoginKey(ctx context.Context, tenant, account string) (string, error) {
	return a.deps.Commands.UnknownLoginKey(ctx, tenant, account)
}

// login locks unknown accounts out after as many wrong passwords as a
// member, so that a lockout does not tell which accounts exist.
func (l *limits) login(unknown unknownLoginKey, next handler) handler {
	return l.perIP(l.loginIP, fault.MsgTooManyAttempts, func(c echo.Context, p commands.Principal) error {
		var body commands.Login
		peekBody(c, &body)
		if body.TenantCode == "" {
			body.TenantCode = tenant.Default
		}
		if body.Account == "" {
			return next(c, p)
		}
		key, err := unknown(c.Request().Context(), body.TenantCode, body.Account)
		if err != nil || key == "" {
			return next(c, p)
		}
		if l.unknownLogins.full(key) {
			return tooMany(fault.MsgTooManyAttempts)
		}
		err = next(c, p)
		if f, ok := fault.As(err); ok && f.Key == fault.MsgWrongPassword {
			l.unknownLogins.take(key)
		}
		return err
	})
}

func (l *limits) friendRequestLock(next handler) handler {
	return func(c echo.Context, p commands.Principal) error {
		var body commands.RequestFriend
		peekBody(c, &body)
		if !l.friendRequest.take(p.Tenant + "\x00" + p.MemberID + "\x00" + body.FriendMemberID) {
			return tooMany(fault.MsgRepeatedSubmit)
		}
		return next(c, p)
	}
}
