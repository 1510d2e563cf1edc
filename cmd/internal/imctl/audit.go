package imctl

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/commands"
	"github.com/eventchat/eventchat/domain/audit"
)

// defaultTokenTTL is how long a printed token is good by default.
const defaultTokenTTL = 8 * time.Hour

// parseToken reads "token [--ttl 8h]": an operator token to paste into the
// web client's admin page.
func parseToken(args []string) (request, error) {
	fs := subcommand("token")
	ttl := fs.Duration("ttl", defaultTokenTTL, "")
	if err := parseFlags(fs, args); err != nil {
		return request{}, err
	}
	if err := checkTTL(*ttl, authtoken.MaxOperatorTTL); err != nil {
		return request{}, err
	}
	return request{local: func(l local) error {
		tokens, err := l.signer()
		if err != nil {
			return err
		}
		fmt.Fprintln(l.stdout, tokens.IssueOperator(l.operator, time.Now().Add(*ttl)))
		return nil
	}}, nil
}

// parseAudit reads "audit <verb> ...".
func parseAudit(verb string, args []string) (request, error) {
	if verb == "check" {
		if len(args) != 1 {
			return request{}, errors.New("audit check takes 1 argument")
		}
		return request{local: func(l local) error { return checkExport(args[0], l.stdout) }}, nil
	}
	switch verb {
	case "replay", "replays", "delete", "browse", "verify", "compare":
		return parseReplayAudit(verb, args)
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return request{}, fmt.Errorf("audit %s takes <tenant> first", verb)
	}
	tenant, fs := args[0], subcommand("audit "+verb)
	switch verb {
	case "token":
		name := fs.String("name", "", "")
		ttl := fs.Duration("ttl", defaultTokenTTL, "")
		if err := parseFlags(fs, args[1:]); err != nil {
			return request{}, err
		}
		if *name == "" {
			return request{}, errors.New("audit token needs --name <who>")
		}
		if err := checkTTL(*ttl, authtoken.MaxAuditorTTL); err != nil {
			return request{}, err
		}
		return request{local: func(l local) error {
			tokens, err := l.signer()
			if err != nil {
				return err
			}
			now := time.Now()
			token, err := tokens.IssueAuditor(*name, tenant, now, now.Add(*ttl))
			if err != nil {
				return err
			}
			fmt.Fprintln(l.stdout, token)
			return nil
		}}, nil
	case "events", "export":
		filters := map[string]*string{}
		for _, f := range []string{"from", "to", "stream", "chat", "type", "actor"} {
			filters[f] = fs.String(f, "", "")
		}
		if verb == "events" {
			filters["after"], filters["size"] = fs.String("after", "", ""), fs.String("size", "", "")
		}
		if err := parseFlags(fs, args[1:]); err != nil {
			return request{}, err
		}
		q := url.Values{"tenant": {tenant}}
		for k, v := range filters {
			if *v != "" {
				q.Set(k, *v)
			}
		}
		if verb == "export" {
			return request{method: http.MethodGet, path: "/v1/admin/audit/export", query: q, export: true, long: true}, nil
		}
		return request{method: http.MethodGet, path: "/v1/admin/audit/events", query: q, show: showEvents}, nil
	}
	return request{}, fmt.Errorf("unknown command %q", "audit "+verb)
}

func subcommand(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses the flags after a command's arguments, which must all
// be flags.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%s: %w", fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

func checkTTL(ttl, max time.Duration) error {
	if ttl <= 0 || ttl > max {
		return fmt.Errorf("--ttl must be more than 0 and at most %s", max)
	}
	return nil
}

// export copies an export to w, checking its checksum line as it passes:
// an export cut short or altered on the way is an error.
func (c client) export(ctx context.Context, r request, w io.Writer) error {
	ctx, cancel, limit := c.limited(ctx, r)
	defer cancel()
	resp, err := c.send(ctx, r)
	if err != nil {
		return cut(ctx, limit, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, err := c.envelope(resp)
		if err == nil {
			err = fmt.Errorf("the server answered %s", resp.Status)
		}
		return cut(ctx, limit, err)
	}
	if _, err := audit.ReadExport(io.TeeReader(resp.Body, w), func(audit.Entry) error { return nil }); err != nil {
		return fmt.Errorf("the export is incomplete: %w", cut(ctx, limit, err))
	}
	return nil
}

// checkExport verifies the export in file ("-": stdin) and prints what it holds.
func checkExport(file string, w io.Writer) error {
	var r io.Reader = os.Stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	t, err := audit.ReadExport(r, func(audit.Entry) error { return nil })
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "ok: %d events of tenant %s, log head %d, %s\n", t.Count, t.Tenant, t.Head, t.Checksum)
	return nil
}

// showEvents prints a page of history as a table, then the next cursor.
func showEvents(w io.Writer, data json.RawMessage) error {
	var page commands.AuditPage
	if err := json.Unmarshal(data, &page); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POSITION\tTIME\tSTREAM\tTYPE\tACTOR")
	for _, e := range page.Events {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", e.Position, time.UnixMilli(e.Time).UTC().Format(time.RFC3339Nano), e.Stream, e.Type, e.Actor)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if page.Next != 0 {
		fmt.Fprintf(w, "next: %d\n", page.Next)
	}
	return nil
}
