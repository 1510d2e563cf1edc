// Package imctl is the operator CLI: it configures tenants and bans,
// signs out and grades members. It does not open the stores itself: the
// embedded SQLite event store belongs to one process, the running server,
// so imctl asks that server's admin API (/v1/admin/...), with a short-lived
// operator token signed by the data directory's secret. Whoever can read
// the data directory can administer the server.
package imctl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/eventchat/eventchat/adapters/authtoken"
)

// Defaults shared with imserver's configuration.
const (
	DefaultHTTPAddr = ":8080"
	DefaultDataDir  = "./data"
)

// ServerURL is the base URL at which a server listening on addr is reached
// from this host.
func ServerURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

const usage = `usage: imctl [flags] <command>

commands:
  tenant create <code> [--name <name>]    create a tenant
  tenant show <code>                      a tenant's settings
  tenant set <code> key=value...          change settings:
      icon=<url>  logo=<url>  hasVoiceCall=true|false  showGroupMember=true|false
      sendBatchMessage=Enable|Disable  singleDevice=true|false
      illegalWords=true|false (true: no sensitive-word filter, the default)
      sensitiveWords.<Normal|Admin|System>=word1,word2 (empty clears)
      topUp=true|false (members may top their balance up; off by default)
      assistant=on|off  assistantBaseURL=<OpenAI-compatible URL, e.g. http://127.0.0.1:11434/v1>
      assistantModels=gpt-4o-mini,llama3  assistantTimeout=<seconds>
      assistantKey=<provider key> (kept in the server's data dir, never in the log; empty forgets it)
  member show <tenant> <account>          a member's level and ban
  member ban|unban <tenant> <account>     ban (every session ends with 31 Disable) or lift it
  member offline <tenant> <account>       end every session with 31 Offline
  member erase <tenant> <account> [--request <reference>]
                                          erase the member's personal data for ever (its key is destroyed);
                                          request: on whose request (the ticket), recorded with the erasure
  projections status                      every projector's checkpoint, the log's head, lag, last error
  projections rebuild <name|all>          rebuild the read models into a shadow and swap it in,
                                          with a progress bar; run again after an interruption to resume
  projections cancel                      stop the running rebuild, keeping its shadow to resume
  store status                            the migration of a SQLite event log into the Pebble store,
                                          read from the data directory (works while the server migrates)
  member level <tenant> <account> <level> set the level: Normal, Admin or System
  feedback list <tenant>                  the feedback members sent, newest first (100), with replies
  feedback reply <tenant> <feedbackId> <text>
                                          reply to a feedback: the member gets a notice of it
  topup list <tenant>                     the tenant's top-up orders, newest first (100), with their status
  topup confirm <tenant> <orderId>        confirm an order was paid: the member's balance is credited once
  topup reject <tenant> <orderId> [reason]
                                          reject an order's payment
  topup adjust <tenant> <account> <id> <amount> <reason>
                                          credit (12.50) or debit (-12.50) a balance; the same id again
                                          changes nothing; a debit below zero is refused
  token [--ttl 8h]                        print an operator token (at most 12h) for the web client's admin page
  audit token <tenant> --name <who> [--ttl 8h]
                                          print an auditor token of the tenant (at most 12h)
  audit events <tenant> [filters] [--after <position>] [--size <n>]
                                          a page of the tenant's event history; "next:" gives the next --after
  audit export <tenant> [filters]         the tenant's history as NDJSON with its checksum line, on stdout
  audit check <file.ndjson>               verify an export's checksum ("-": stdin)
      filters: --from <time> --to <time> (RFC 3339 or Unix ms)  --stream <name>  --chat <conversation id>
               --type <type,...>  --actor <member id>
  audit replay <tenant> [--position P | --time T | --file F]
                                          replay a tenant's events up to a position, a time (RFC 3339
                                          or Unix ms) or the head, or an export file, into an isolated
                                          read store, with a progress bar
  audit replays                           every replay with its state and progress
  audit delete <replayId>                 remove a replay
  audit browse <replayId> sessions|groups|friends <memberId>
  audit browse <replayId> history <memberId> --friend <id> | --group <id> [--anchor <messageId>] [--dir Up|Down] [--size N]
  audit browse <replayId> groupMembers <groupId>
                                          a member's views as they stood in the replay (JSON)
  audit verify <tenant> [--json]          compare the tenant's live read models with a fold of its
                                          events; exits 1 when one differs
  audit compare <replayA> <replayB> [--json]
                                          compare two replays' read models; exits 1 when one differs

<account> is an account name, a phone number or a member id.

A call gives up when the server has not answered within 30s, but for the long ones (audit
verify, audit compare, audit export and the upload of audit replay --file), which run until they
end or Ctrl-C. --timeout <duration> sets the limit of every call, long ones included (0: none).
A replay or rebuild followed with its progress bar is polled until it ends, each poll a quick
call; Ctrl-C stops following it (it goes on in the server).

flags:
`

// Run runs one imctl command and returns the process's exit code: 0 done,
// 1 refused or failed, 2 misused.
func Run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	env := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("imctl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data-dir", env("IM_DATA_DIR", DefaultDataDir), "the server's data directory, for its signing secret (IM_DATA_DIR)")
	server := fs.String("server", env("IM_SERVER_URL", ServerURL(env("IM_HTTP_ADDR", DefaultHTTPAddr))),
		"the server's base URL (IM_SERVER_URL; default from IM_HTTP_ADDR)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	name := fs.String("operator", env("USER", "imctl"), "the operator's name, recorded in the events")
	bearer := fs.String("token", "", "send this token (an auditor's, for imctl audit) instead of signing an operator token")
	timeout := fs.Duration("timeout", 0, "give up on a call the server has not answered within this `duration`, long calls included; 0: never\n(default: "+quickTimeout.String()+" for quick calls, no limit for long ones)")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *timeout < 0 {
		fmt.Fprintln(stderr, "imctl: --timeout must be 0 (no limit) or more")
		return 2
	}
	lim := limits{quick: quickTimeout}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "timeout" {
			lim = limits{quick: *timeout, long: *timeout}
		}
	})
	rest := fs.Args()
	// --json may also follow the command.
	if n := len(rest); n > 0 && (rest[n-1] == "--json" || rest[n-1] == "-json") {
		*asJSON, rest = true, rest[:n-1]
	}
	req, err := parse(rest)
	if err != nil {
		fmt.Fprintln(stderr, "imctl:", err)
		fs.Usage()
		return 2
	}
	signer := func() (*authtoken.Tokens, error) {
		key, err := authtoken.LoadSecret(*dataDir, false)
		if err != nil {
			return nil, fmt.Errorf("the signing secret of %s: %w (has a server started on this data directory?)", *dataDir, err)
		}
		return authtoken.New(key, nil)
	}
	if req.local != nil {
		if err := req.local(local{signer: signer, operator: *name, stdout: stdout, dataDir: *dataDir, json: *asJSON}); err != nil {
			fmt.Fprintln(stderr, "imctl:", err)
			return 1
		}
		return 0
	}
	token := func() string { return *bearer }
	if *bearer == "" {
		tokens, err := signer()
		if err != nil {
			fmt.Fprintln(stderr, "imctl:", err)
			return 1
		}
		// One token a call, so that following a long replay or rebuild
		// outlives any one of them.
		token = func() string { return tokens.IssueOperator(*name, time.Now().Add(time.Minute)) }
	}
	c := client{base: strings.TrimSuffix(*server, "/"), token: token, limits: lim}
	failed := func(err error) int {
		if ctx.Err() != nil {
			err = errors.New("interrupted")
		}
		fmt.Fprintln(stderr, "imctl:", err)
		return 1
	}
	if req.export {
		if err := c.export(ctx, req, stdout); err != nil {
			return failed(err)
		}
		return 0
	}
	data, err := c.do(ctx, req)
	if err == nil && req.follow != nil {
		data, err = req.follow(ctx, c, stderr, !*asJSON && !req.json, data)
	}
	if err != nil {
		return failed(err)
	}
	code := 0
	if req.failed != nil && req.failed(data) {
		code = 1
	}
	if *asJSON || req.json {
		var out bytes.Buffer
		if json.Indent(&out, data, "", "  ") != nil {
			out.Write(data)
		}
		fmt.Fprintln(stdout, out.String())
		return code
	}
	if req.show != nil {
		if err := req.show(stdout, data); err == nil {
			return code
		}
	}
	printHuman(stdout, data)
	return code
}

// request is one admin API call.
type request struct {
	method, path string
	query        url.Values
	body         any
	// file, when set, is sent as the body instead, as NDJSON.
	file string
	// follow, when set, polls what the call started until it ends, with a
	// progress bar on w when bar is set, and returns its last state.
	follow func(ctx context.Context, c client, w io.Writer, bar bool, started json.RawMessage) (json.RawMessage, error)
	// json prints the result as JSON, as --json does.
	json bool
	// failed tells, from the result, that the command must exit 1.
	failed func(data json.RawMessage) bool
	// show prints the result for people, instead of printHuman.
	show func(w io.Writer, data json.RawMessage) error
	// local runs the command here instead of asking the server.
	local func(l local) error
	// export copies the answer, an export, to stdout, checking it on the way.
	export bool
	// long is a call that takes as long as the tenant's history does: no
	// time limit unless --timeout gives one.
	long bool
}

// local is what commands run without the server are given.
type local struct {
	signer   func() (*authtoken.Tokens, error)
	operator string
	stdout   io.Writer
	dataDir  string
	json     bool // --json was given
}

func parse(args []string) (request, error) {
	if len(args) > 0 && args[0] == "token" {
		return parseToken(args[1:])
	}
	if len(args) < 2 {
		return request{}, errors.New("missing command")
	}
	switch args[0] {
	case "audit":
		return parseAudit(args[1], args[2:])
	case "topup":
		return parseTopUp(args[1], args[2:])
	}
	need := func(n int) error {
		if len(args) != n {
			return fmt.Errorf("%s %s takes %d arguments", args[0], args[1], n-2)
		}
		return nil
	}
	switch args[0] + " " + args[1] {
	case "projections status":
		if err := need(2); err != nil {
			return request{}, err
		}
		return request{method: http.MethodGet, path: "/v1/admin/projections/status", show: showStatus}, nil
	case "projections rebuild":
		if err := need(3); err != nil {
			return request{}, err
		}
		return request{method: http.MethodPost, path: "/v1/admin/projections/rebuild", body: map[string]string{"name": args[2]}, follow: followRebuild}, nil
	case "store status":
		if err := need(2); err != nil {
			return request{}, err
		}
		return request{local: showStoreStatus}, nil
	case "projections cancel":
		if err := need(2); err != nil {
			return request{}, err
		}
		return request{method: http.MethodDelete, path: "/v1/admin/projections/rebuild"}, nil
	case "tenant create":
		// The name comes as the last argument or as --name <name> (API.md).
		rest := args[3:]
		if len(rest) > 0 && (rest[0] == "--name" || rest[0] == "-name") {
			rest = rest[1:]
			if len(rest) == 0 {
				return request{}, errors.New("--name needs a value")
			}
		} else if len(rest) > 0 {
			if v, ok := strings.CutPrefix(rest[0], "--name="); ok {
				rest = []string{v}
			}
		}
		if len(rest) > 1 {
			return request{}, errors.New("tenant create takes <code> [--name <name>]")
		}
		body := map[string]string{"code": args[2]}
		if len(rest) == 1 {
			body["name"] = rest[0]
		}
		return request{method: http.MethodPost, path: "/v1/admin/tenant/create", body: body}, nil
	case "tenant show":
		if err := need(3); err != nil {
			return request{}, err
		}
		return request{method: http.MethodGet, path: "/v1/admin/tenant/show", query: url.Values{"code": {args[2]}}}, nil
	case "tenant set":
		if len(args) < 4 {
			return request{}, errors.New("tenant set takes <code> key=value...")
		}
		settings := map[string]string{}
		for _, kv := range args[3:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return request{}, fmt.Errorf("%q is not key=value", kv)
			}
			if _, dup := settings[k]; dup {
				return request{}, fmt.Errorf("setting %s given twice", k)
			}
			settings[k] = v
		}
		return request{method: http.MethodPut, path: "/v1/admin/tenant/settings", body: map[string]any{"code": args[2], "settings": settings}}, nil
	case "member show":
		if err := need(4); err != nil {
			return request{}, err
		}
		return request{method: http.MethodGet, path: "/v1/admin/member/show", query: url.Values{"tenant": {args[2]}, "account": {args[3]}}}, nil
	case "member ban", "member unban", "member offline":
		if err := need(4); err != nil {
			return request{}, err
		}
		return request{method: http.MethodPut, path: "/v1/admin/member/" + args[1], body: map[string]string{"tenant": args[2], "account": args[3]}}, nil
	case "member erase":
		body := map[string]string{}
		rest := args[2:]
		if len(rest) == 4 && rest[2] == "--request" {
			body["request"], rest = rest[3], rest[:2]
		}
		if len(rest) != 2 {
			return request{}, errors.New("member erase takes <tenant> <account> [--request <reference>]")
		}
		body["tenant"], body["account"] = rest[0], rest[1]
		return request{method: http.MethodPut, path: "/v1/admin/member/erase", body: body}, nil
	case "member level":
		if err := need(5); err != nil {
			return request{}, err
		}
		return request{method: http.MethodPut, path: "/v1/admin/member/level", body: map[string]string{"tenant": args[2], "account": args[3], "level": args[4]}}, nil
	case "feedback list":
		if err := need(3); err != nil {
			return request{}, err
		}
		return request{method: http.MethodGet, path: "/v1/admin/feedback/list", query: url.Values{"tenant": {args[2]}, "pageSize": {"100"}},
			show: showFeedback}, nil
	case "feedback reply":
		if len(args) < 5 {
			return request{}, errors.New("feedback reply takes <tenant> <feedbackId> <text>")
		}
		return request{method: http.MethodPut, path: "/v1/admin/feedback/reply",
			body: map[string]string{"tenant": args[2], "id": args[3], "reply": strings.Join(args[4:], " ")}}, nil
	}
	return request{}, fmt.Errorf("unknown command %q", args[0]+" "+args[1])
}

// quickTimeout is how long a quick call may take when --timeout is not
// given.
var quickTimeout = 30 * time.Second

// limits are how long calls may take, quick and long ones (0: no limit).
type limits struct{ quick, long time.Duration }

type client struct {
	base string
	// token is the bearer of the next call.
	token  func() string
	limits limits
}

// limited bounds ctx by r's time limit.
func (c client) limited(ctx context.Context, r request) (context.Context, context.CancelFunc, time.Duration) {
	limit := c.limits.quick
	if r.long {
		limit = c.limits.long
	}
	if limit == 0 {
		ctx, cancel := context.WithCancel(ctx)
		return ctx, cancel, 0
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	return ctx, cancel, limit
}

// cut tells a call ended by its time limit from other failures.
func cut(ctx context.Context, limit time.Duration, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s: give a longer --timeout, or 0 for none", limit)
	}
	return err
}

// do makes the call and returns the envelope's data; a refusal is an error
// carrying the server's text.
func (c client) do(ctx context.Context, r request) (json.RawMessage, error) {
	ctx, cancel, limit := c.limited(ctx, r)
	defer cancel()
	resp, err := c.send(ctx, r)
	if err != nil {
		return nil, cut(ctx, limit, err)
	}
	defer resp.Body.Close()
	data, err := c.envelope(resp)
	// An audit call's position is a replay's, not a write's.
	if err == nil && r.method != http.MethodGet && !strings.Contains(r.path, "/audit/") {
		c.awaitFolded(ctx, data)
	}
	return data, cut(ctx, limit, err)
}

// awaitFolded waits, as a read with ?after= does, until the read models
// have folded the log position a write answered, so that the next command
// (a list after a reply, say) sees what this one wrote. A write is done
// whether or not the wait is: its errors are not the command's.
func (c client) awaitFolded(ctx context.Context, data json.RawMessage) {
	var written struct {
		Position uint64 `json:"position"`
	}
	if json.Unmarshal(data, &written) != nil || written.Position == 0 {
		return
	}
	resp, err := c.send(ctx, request{method: http.MethodGet, path: "/v1/admin/projections/status",
		query: url.Values{"after": {strconv.FormatUint(written.Position, 10)}}})
	if err == nil {
		_ = resp.Body.Close()
	}
}

// send makes the call; the caller closes the answer's body.
func (c client) send(ctx context.Context, r request) (*http.Response, error) {
	var body io.Reader
	contentType := "application/json"
	switch {
	case r.file != "":
		f, err := os.Open(r.file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		body, contentType = f, "application/x-ndjson"
	case r.body != nil:
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	u := c.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token())
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the server at %s: %w (is it running?)", c.base, err)
	}
	return resp, nil
}

// envelope reads an answer's envelope and returns its data, or the
// refusal it carries as an error.
func (c client) envelope(resp *http.Response) (json.RawMessage, error) {
	var env struct {
		Code string          `json:"code"`
		Data json.RawMessage `json:"data"`
		Info string          `json:"info"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&env); err != nil {
		return nil, fmt.Errorf("the server at %s answered %s without an envelope", c.base, resp.Status)
	}
	if env.Code != "200" {
		return nil, fmt.Errorf("%s (%s)", env.Info, env.Code)
	}
	return env.Data, nil
}

// printHuman prints an object as aligned "key: value" lines, nested objects
// as "key.sub: value", keys sorted.
func printHuman(w io.Writer, data json.RawMessage) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		fmt.Fprintln(w, string(data))
		return
	}
	lines := map[string]string{}
	flatten("", v, lines)
	keys := make([]string, 0, len(lines))
	width := 0
	for k := range lines {
		keys = append(keys, k)
		width = max(width, len(k))
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%-*s  %s\n", width+1, k+":", lines[k])
	}
}

func flatten(prefix string, v any, out map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 && prefix != "" {
			out[prefix] = "(none)"
		}
		for k, sub := range v {
			if prefix != "" {
				k = prefix + "." + k
			}
			flatten(k, sub, out)
		}
	case nil:
		out[prefix] = ""
	case string:
		out[prefix] = v
	default:
		b, _ := json.Marshal(v)
		out[prefix] = string(b)
	}
}
