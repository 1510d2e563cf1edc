package imctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/eventchat/eventchat/projections"
)

// parseReplayAudit parses the audit commands on replays and verification
// (docs/api-audit.md): "audit <cmd> <rest...>".
func parseReplayAudit(cmd string, rest []string) (request, error) {
	switch cmd {
	case "replay":
		pos, opts, err := options(rest, "position", "time", "file")
		if err != nil || len(pos) != 1 {
			return request{}, errors.New("audit replay takes <tenant> [--position P | --time T | --file F]")
		}
		if len(opts) > 1 {
			return request{}, errors.New("audit replay takes one of --position, --time and --file")
		}
		if f, ok := opts["file"]; ok {
			return request{method: http.MethodPost, path: "/v1/admin/audit/replays/import", file: f, long: true,
				follow: followReplay, show: showReplay}, nil
		}
		body := map[string]any{"tenant": pos[0]}
		if p, ok := opts["position"]; ok {
			n, err := strconv.ParseUint(p, 10, 64)
			if err != nil {
				return request{}, fmt.Errorf("--position %q is not a log position", p)
			}
			body["position"] = n
		}
		if t, ok := opts["time"]; ok {
			body["time"] = t
		}
		return request{method: http.MethodPost, path: "/v1/admin/audit/replays", body: body,
			follow: followReplay, show: showReplay}, nil
	case "replays":
		if len(rest) != 0 {
			return request{}, errors.New("audit replays takes no arguments")
		}
		return request{method: http.MethodGet, path: "/v1/admin/audit/replays", show: showReplays}, nil
	case "delete":
		if len(rest) != 1 {
			return request{}, errors.New("audit delete takes <replayId>")
		}
		return request{method: http.MethodDelete, path: "/v1/admin/audit/replays/" + url.PathEscape(rest[0]), show: showReplay}, nil
	case "browse":
		return parseBrowse(rest)
	case "verify":
		pos, opts, err := options(rest, "json")
		if err != nil || len(pos) != 1 {
			return request{}, errors.New("audit verify takes <tenant> [--json]")
		}
		_, asJSON := opts["json"]
		return request{method: http.MethodPost, path: "/v1/admin/audit/verify", body: map[string]string{"tenant": pos[0]},
			json: asJSON, failed: differs, show: showModels, long: true}, nil
	case "compare":
		pos, opts, err := options(rest, "json")
		if err != nil || len(pos) != 2 {
			return request{}, errors.New("audit compare takes <replayA> <replayB> [--json]")
		}
		_, asJSON := opts["json"]
		return request{method: http.MethodPost, path: "/v1/admin/audit/compare", body: map[string]string{"replayA": pos[0], "replayB": pos[1]},
			json: asJSON, failed: differs, show: showModels, long: true}, nil
	}
	return request{}, fmt.Errorf("unknown command %q", "audit "+cmd)
}

// parseBrowse parses "<replayId> <view> <memberId|groupId> [options]".
func parseBrowse(args []string) (request, error) {
	usage := errors.New("audit browse takes <replayId> sessions|history|groups|friends <memberId>, or groupMembers <groupId>")
	pos, opts, err := options(args, "friend", "group", "anchor", "dir", "size")
	if err != nil || len(pos) != 3 {
		return request{}, usage
	}
	id, view, who := pos[0], pos[1], pos[2]
	q := url.Values{"memberId": {who}}
	switch view {
	case "sessions", "groups", "friends":
		if len(opts) > 0 {
			return request{}, fmt.Errorf("audit browse %s takes no options", view)
		}
	case "groupMembers":
		if len(opts) > 0 {
			return request{}, errors.New("audit browse groupMembers takes no options")
		}
		q = url.Values{"groupId": {who}}
	case "history":
		for flag, param := range map[string]string{"friend": "friendId", "group": "groupId", "anchor": "anchor", "dir": "dir", "size": "size"} {
			if v, ok := opts[flag]; ok {
				q.Set(param, v)
			}
		}
		if (q.Get("friendId") == "") == (q.Get("groupId") == "") {
			return request{}, errors.New("audit browse history takes --friend <id> or --group <id>")
		}
	default:
		return request{}, usage
	}
	return request{method: http.MethodGet, path: "/v1/admin/audit/replays/" + url.PathEscape(id) + "/" + view, query: q, json: true}, nil
}

// options splits args into positional arguments and --name value (or
// --name=value) options among names; --json takes no value.
func options(args []string, names ...string) ([]string, map[string]string, error) {
	var pos []string
	opts := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		known := false
		for _, n := range names {
			known = known || n == name
		}
		if !known {
			return nil, nil, fmt.Errorf("unknown option %s", a)
		}
		if _, dup := opts[name]; dup {
			return nil, nil, fmt.Errorf("option --%s given twice", name)
		}
		if name != "json" && !hasValue {
			if i++; i == len(args) {
				return nil, nil, fmt.Errorf("--%s needs a value", name)
			}
			value = args[i]
		}
		opts[name] = value
	}
	return pos, opts, nil
}

// replayPollEvery is how often a replay's progress is asked for: each ask
// is an AuditAccessed record of the tenant's history.
const replayPollEvery = time.Second

// followReplay polls the replay started until it is done or has failed,
// drawing a progress bar on w when bar is set, and returns its last state.
func followReplay(ctx context.Context, c client, w io.Writer, draw bool, started json.RawMessage) (json.RawMessage, error) {
	var r projections.Replay
	if err := json.Unmarshal(started, &r); err != nil {
		return nil, fmt.Errorf("the replay: %w", err)
	}
	data := started
	for {
		if draw {
			fmt.Fprintf(w, "\r%d events folded  %s ", r.Done, r.State)
		}
		switch r.State {
		case projections.ReplayDone:
			if draw {
				fmt.Fprintln(w)
			}
			return data, nil
		case projections.ReplayFailed:
			if draw {
				fmt.Fprintln(w)
			}
			return nil, fmt.Errorf("the replay %s failed: %s", r.ID, r.Error)
		}
		select {
		case <-time.After(replayPollEvery):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		var err error
		if data, err = c.do(ctx, request{method: http.MethodGet, path: "/v1/admin/audit/replays/" + url.PathEscape(r.ID)}); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("the replay: %w", err)
		}
	}
}

func showReplay(w io.Writer, data json.RawMessage) error {
	var r projections.Replay
	if err := json.Unmarshal(data, &r); err != nil {
		return err
	}
	return replayTable(w, []projections.Replay{r})
}

func showReplays(w io.Writer, data json.RawMessage) error {
	var rs []projections.Replay
	if err := json.Unmarshal(data, &rs); err != nil {
		return err
	}
	return replayTable(w, rs)
}

func replayTable(w io.Writer, rs []projections.Replay) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTENANT\tSOURCE\tPOSITION\tTIME\tSTATE\tEVENTS\tERROR")
	for _, r := range rs {
		at, errText := "-", r.Error
		if !r.Time.IsZero() {
			at = r.Time.UTC().Format(time.RFC3339)
		}
		if errText == "" {
			errText = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%d\t%s\n", r.ID, r.Tenant, r.Source, r.Position, at, r.State, r.Done, errText)
	}
	return tw.Flush()
}

// models are the read models a verify or a compare answers.
type models struct {
	Tenant   string                        `json:"tenant"`
	Position uint64                        `json:"position"`
	ReplayA  string                        `json:"replayA"`
	ReplayB  string                        `json:"replayB"`
	Models   []projections.ModelComparison `json:"models"`
}

func differs(data json.RawMessage) bool {
	var m models
	if json.Unmarshal(data, &m) != nil {
		return true
	}
	for _, c := range m.Models {
		if !c.Equal {
			return true
		}
	}
	return false
}

// showModels prints one line per read model: equal, or where it differs.
func showModels(w io.Writer, data json.RawMessage) error {
	var m models
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m.ReplayA != "" {
		fmt.Fprintf(w, "tenant %s: replay %s against replay %s\n", m.Tenant, m.ReplayA, m.ReplayB)
	} else {
		fmt.Fprintf(w, "tenant %s at position %d\n", m.Tenant, m.Position)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range m.Models {
		if c.Equal {
			fmt.Fprintf(tw, "%s\tequal\n", c.Name)
		} else {
			fmt.Fprintf(tw, "%s\tdiffers at %s\n", c.Name, c.FirstDifference)
		}
	}
	return tw.Flush()
}
