package imctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/eventchat/eventchat/projections"
)

// pollEvery is how often a rebuild's progress is asked for.
var pollEvery = 250 * time.Millisecond

// followRebuild polls the rebuild until it is done or has failed, drawing
// a progress bar on w when bar is set, and returns its last progress.
func followRebuild(ctx context.Context, c client, w io.Writer, bar bool, _ json.RawMessage) (json.RawMessage, error) {
	for {
		data, err := c.do(ctx, request{method: http.MethodGet, path: "/v1/admin/projections/rebuild"})
		if err != nil {
			return nil, err
		}
		var p projections.Rebuild
		if err := json.Unmarshal(data, &p); err != nil {
			return nil, fmt.Errorf("the rebuild's progress: %w", err)
		}
		if bar {
			fmt.Fprint(w, "\r"+progressLine(p))
		}
		switch p.State {
		case projections.RebuildDone:
			if bar {
				fmt.Fprintln(w)
			}
			return data, nil
		case projections.RebuildFailed, projections.RebuildIdle:
			if bar {
				fmt.Fprintln(w)
			}
			return nil, fmt.Errorf("the rebuild failed: %s (run it again to resume)", p.Error)
		case projections.RebuildCancelled:
			if bar {
				fmt.Fprintln(w)
			}
			return nil, errors.New("the rebuild was cancelled (run it again to resume)")
		}
		select {
		case <-time.After(pollEvery):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// progressLine is "[#####.....]  52%  520000 events  41000 ev/s  ETA 12s  running":
// the share is of the log's time, from its first event to its head.
func progressLine(p projections.Rebuild) string {
	eta := time.Duration(p.ETASeconds * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%s  %d events  %.0f ev/s  ETA %s  %s ", bar(p.Fraction), p.Done, p.Rate, eta, p.State)
}

// bar is "[#####.....]  52%".
func bar(frac float64) string {
	const width = 30
	n := int(min(1, max(0, frac)) * width)
	return fmt.Sprintf("[%s%s] %3.0f%%", strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100)
}

// showStatus prints the projections' status as a table.
func showStatus(w io.Writer, data json.RawMessage) error {
	var s struct {
		projections.Report
		Rebuild projections.Rebuild `json:"rebuild"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	fmt.Fprintf(w, "head: %d", s.Head)
	if !s.HeadTime.IsZero() {
		fmt.Fprintf(w, " (%s)", s.HeadTime.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(w, "  folded: %d  skipped: %d", s.Position, s.Skipped)
	if s.Leader != "" {
		fmt.Fprintf(w, "  leader: %s", s.Leader)
	}
	fmt.Fprintln(w)
	if s.LastError != "" {
		fmt.Fprintf(w, "last error: %s\n", s.LastError)
	}
	if p := s.Publisher; p != nil {
		fmt.Fprintf(w, "publish: buffered: %d  dropped: %d  resyncs: %d", p.Buffered, p.Dropped, p.Resyncs)
		if p.Gap {
			fmt.Fprint(w, "  gap: resync pending")
		}
		if p.LastError != "" {
			fmt.Fprintf(w, "  last error: %s", p.LastError)
		}
		fmt.Fprintln(w)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECTOR\tCHECKPOINT\tHEAD\tBEHIND\tLAG SECONDS\tLAST ERROR")
	for _, p := range s.Projector {
		last := p.LastError
		if last == "" {
			last = "-"
		}
		behind := "no"
		if p.Behind {
			behind = "yes"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%.1f\t%s\n", p.Name, p.Checkpoint, p.Head, behind, p.LagSeconds, last)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if s.Rebuild.State != "" && s.Rebuild.State != projections.RebuildIdle {
		fmt.Fprintf(w, "rebuild: %s\n", progressLine(s.Rebuild))
		if s.Rebuild.Error != "" {
			fmt.Fprintf(w, "rebuild error: %s\n", s.Rebuild.Error)
		}
	}
	return nil
}
