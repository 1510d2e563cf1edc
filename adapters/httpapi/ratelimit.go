package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"

	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/fault"
	"github.com/eventchat/eventchat/domain/member"
	"github.com/eventchat/eventchat/domain/tenant"
)

// Rate limits, counted in the store every node shares (Deps.Counters), so
// that they do not multiply with the nodes:
//
//   - login and password reset: 20 per minute per client address; 10 wrong
//     passwords for an account nobody holds, by its normalised spelling, in
//     15 minutes refuse its logins until the window ends, as the member's
//     stream locks a member out (member.MaxLoginFailures);
//   - SMS codes: 10 per 10 minutes per client address (per phone, the
//     phone's code stream allows one a minute and five an hour);
//   - isMobileRegister: 60 per minute per client address;
//   - friend requests: a second request to the same member within 200 ms
//     of the first is refused (a double submit);
//   - top-up orders: 10 calls per minute per member, retries included.
//
// Each window opens with a key's first event. Loopback clients (the
// server's own tests and benchmarks, or a proxy that does not forward the
// address) are not limited per address.
//
// When the shared counters fail or do not answer within countTimeout, the
// node counts alone, in memory, until they answer again, and says so once
// in its log: the limits loosen to one per node, they do not vanish. Not
// failing closed is deliberate: refusing every login and code while the
// read store is away would turn its outage into one of the whole service,
// and the limits that guard single accounts and phones (the member's
// lockout, the phone's code stream) live in the event log and hold
// regardless.
var (
	loginPerIP        = limit{name: "login", n: 20, window: time.Minute}
	unknownLogins     = limit{name: "unknown-login", n: member.MaxLoginFailures, window: member.LoginLockWindow}
	smsPerIP          = limit{name: "sms", n: 10, window: 10 * time.Minute}
	lookupPerIP       = limit{name: "lookup", n: 60, window: time.Minute}
	friendRequestLock = limit{name: "friend-request", n: 1, window: 200 * time.Millisecond}
	topUpsPerMember   = limit{name: "topup", n: 10, window: time.Minute}
	// assistantPerMember counts a member's questions to the chat assistant.
	assistantPerMember = limit{name: "assistant", n: 20, window: time.Minute}
)

// countTimeout bounds a call to the shared counters: what a limited
// request waits at most for a store that does not answer, long enough for
// one that is slow under load, whose counts would otherwise be split.
const countTimeout = 2 * time.Second

// maxLocalKeys bounds the keys the node's own counters remember.
const maxLocalKeys = 100_000

type limit struct {
	name   string
	n      int64
	window time.Duration
}

// limits count the events of the limits of one API.
type limits struct {
	shared   Counters // nil: the node counts alone
	local    *localCounters
	now      func() time.Time
	log      *zap.Logger
	degraded atomic.Bool // the last call to shared failed
}

func newLimits(shared Counters, log *zap.Logger) *limits {
	return &limits{shared: shared, local: newLocalCounters(maxLocalKeys), now: time.Now, log: log}
}

// take counts one event of value under lim and reports whether it is
// within the limit.
func (l *limits) take(ctx context.Context, lim limit, value string) bool {
	return l.count(ctx, lim, value, true) <= lim.n
}

// full reports whether value has used its window of lim up, without
// counting.
func (l *limits) full(ctx context.Context, lim limit, value string) bool {
	return l.count(ctx, lim, value, false) >= lim.n
}

func (l *limits) count(ctx context.Context, lim limit, value string, add bool) int64 {
	key := counterKey(lim.name, value)
	now := l.now()
	if l.shared != nil {
		c, cancel := context.WithTimeout(ctx, countTimeout)
		var n int64
		var err error
		if add {
			n, err = l.shared.Add(c, key, now, lim.window)
		} else {
			n, err = l.shared.Counted(c, key, now)
		}
		cancel()
		if err == nil {
			if l.degraded.Swap(false) {
				l.log.Info("rate limits counted by every node again")
			}
			return n
		}
		// A request whose client left tells nothing of the store.
		if ctx.Err() == nil && !l.degraded.Swap(true) {
			l.log.Warn("rate limits counted by this node alone until the shared counters answer", zap.Error(err))
		}
	}
	if add {
		return l.local.Add(key, now, lim.window)
	}
	return l.local.Counted(key, now)
}

// counterKey names the counter of value under the limit name by a digest
// of value: keys stay short whatever a client typed as its account.
func counterKey(name, value string) string {
	sum := sha256.Sum256([]byte(value))
	return name + ":" + base64.RawURLEncoding.EncodeToString(sum[:18])
}

// localCounters count events per key in memory, bounded to max keys.
type localCounters struct {
	max  int
	mu   sync.Mutex
	keys map[string]*window
}

type window struct {
	until time.Time
	count int64
}

func newLocalCounters(max int) *localCounters {
	return &localCounters{max: max, keys: map[string]*window{}}
}

// Counted returns the events of key in its window open at now.
func (l *localCounters) Counted(key string, now time.Time) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if w := l.keys[key]; w != nil && now.Before(w.until) {
		return w.count
	}
	return 0
}

// Add counts one event of key at now, in a new window ending at
// now+window unless one is open, and returns the events of the window.
func (l *localCounters) Add(key string, now time.Time, d time.Duration) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.keys[key]
	if w == nil || !now.Before(w.until) {
		if w == nil && len(l.keys) >= l.max {
			l.evict(now)
		}
		w = &window{until: now.Add(d)}
		l.keys[key] = w
	}
	w.count++
	return w.count
}

// evict drops the ended windows, and when that is not enough an arbitrary
// tenth of the keys: memory stays bounded under a flood of new keys.
func (l *localCounters) evict(now time.Time) {
	for k, w := range l.keys {
		if !now.Before(w.until) {
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

func (l *localCounters) size() int {
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

// withLimits wraps the handlers of the limited routes.
func (a *API) withLimits(rs []route) []route {
	l := newLimits(a.deps.Counters, a.log.Named("limits"))
	for i := range rs {
		r := &rs[i]
		next := r.handle
		switch r.path {
		case "/member/memberInfo/login":
			r.handle = l.login(a.unknownLoginKey, next)
		case "/member/memberInfo/forgetPassword":
			r.handle = l.perIP(loginPerIP, fault.MsgTooManyAttempts, next)
		case "/member/sms/send":
			r.handle = l.perIP(smsPerIP, fault.MsgSMSTooManyToday, next)
		case "/member/memberInfo/isMobileRegister":
			r.handle = l.perIP(lookupPerIP, fault.MsgTooManyAttempts, next)
		case "/chat/applyInfo/build":
			r.handle = l.friendRequestLock(next)
		case "/member/topup/order":
			if r.method == http.MethodPost {
				r.handle = l.perMember(topUpsPerMember, fault.MsgTooManyAttempts, next)
			}
		case pathAsk:
			r.handle = l.perMember(assistantPerMember, msgTooManyQuestions, next)
		}
	}
	return rs
}

type handler = func(echo.Context, commands.Principal) error

func tooMany(key string) error { return fault.New(fault.RateLimited, key) }

func (l *limits) perIP(lim limit, key string, next handler) handler {
	return func(c echo.Context, p commands.Principal) error {
		if ip := clientIP(c); limitedAddress(ip) && !l.take(c.Request().Context(), lim, ip) {
			return tooMany(key)
		}
		return next(c, p)
	}
}

// msgTooManyQuestions refuses a member's question over its limit.
const msgTooManyQuestions = "too many questions, please try again in a minute"

// perMember counts a member's requests, from any address and node.
func (l *limits) perMember(lim limit, key string, next handler) handler {
	return func(c echo.Context, p commands.Principal) error {
		if !l.take(c.Request().Context(), lim, p.Tenant+"/"+p.MemberID) {
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
	return l.perIP(loginPerIP, fault.MsgTooManyAttempts, func(c echo.Context, p commands.Principal) error {
		var body commands.Login
		peekBody(c, &body)
		if body.TenantCode == "" {
			body.TenantCode = tenant.Default
		}
		if body.Account == "" {
			return next(c, p)
		}
		ctx := c.Request().Context()
		key, err := unknown(ctx, body.TenantCode, body.Account)
		if err != nil || key == "" {
			return next(c, p)
		}
		if l.full(ctx, unknownLogins, key) {
			return tooMany(fault.MsgTooManyAttempts)
		}
		err = next(c, p)
		if f, ok := fault.As(err); ok && f.Key == fault.MsgWrongPassword {
			l.take(ctx, unknownLogins, key)
		}
		return err
	})
}

func (l *limits) friendRequestLock(next handler) handler {
	return func(c echo.Context, p commands.Principal) error {
		var body commands.RequestFriend
		peekBody(c, &body)
		if !l.take(c.Request().Context(), friendRequestLock, p.Tenant+"\x00"+p.MemberID+"\x00"+body.FriendMemberID) {
			return tooMany(fault.MsgRepeatedSubmit)
		}
		return next(c, p)
	}
}
