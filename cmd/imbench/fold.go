package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/adapters/eventstore/esdb"
	"github.com/eventchat/eventchat/projections"
)

// foldProbe follows how far the node holding the projection lease has
// folded a shared log: it asks every node's admin API for its status and
// counts, in the log, the events between two positions. Positions are only
// compared, never subtracted: the count is of events read.
type foldProbe struct {
	servers []*server
	tokens  *authtoken.Tokens
	log     *esdb.Store
}

// fold is one sample: the position the lease holder has folded up to, the
// log's head, and who holds the lease.
type fold struct {
	folded, head uint64
	leader       string
	at           time.Time
}

// newFoldProbe signs operator tokens with the secret of dataDir (every
// node's data directory holds the one they share) and reads the log at
// esdbURL.
func newFoldProbe(ctx context.Context, servers []*server, dataDir, esdbURL string) (*foldProbe, error) {
	key, err := authtoken.LoadSecret(dataDir, false)
	if err != nil {
		return nil, fmt.Errorf("fold probe: %w", err)
	}
	tokens, err := authtoken.New(key, nil)
	if err != nil {
		return nil, err
	}
	log, err := esdb.Open(ctx, esdbURL)
	if err != nil {
		return nil, fmt.Errorf("fold probe: %w", err)
	}
	return &foldProbe{servers: servers, tokens: tokens, log: log}, nil
}

func (p *foldProbe) Close() error { return p.log.Close() }

// sample is the furthest position any node reports folded: the lease
// holder's; the others follow its checkpoints. A node's is its furthest
// checkpoint, the live fold's, which deliveries wait for: the report's
// position also waits for the search index, which trails the live fold
// and yields to it, so under load it stands still.
func (p *foldProbe) sample(ctx context.Context) (fold, error) {
	var f fold
	for _, s := range p.servers {
		var r projections.Report
		token := p.tokens.IssueOperator("imbench", time.Now().Add(time.Minute))
		if err := s.call(ctx, http.MethodGet, "/v1/admin/projections/status", token, nil, &r); err != nil {
			return fold{}, err
		}
		folded := r.Position
		for _, ps := range r.Projector {
			folded = max(folded, ps.Checkpoint)
		}
		if folded >= f.folded {
			f.folded, f.leader = folded, r.Leader
		}
		f.head = max(f.head, r.Head)
	}
	f.at = time.Now()
	return f, nil
}

// events counts the log's events after from up to and including to.
func (p *foldProbe) events(ctx context.Context, from, to uint64) (int, error) {
	n := 0
	for from < to {
		page, err := p.log.ReadAll(ctx, from, 4096)
		if err != nil {
			return 0, err
		}
		if len(page) == 0 {
			return n, nil
		}
		for _, e := range page {
			if e.Position > to {
				return n, nil
			}
			n++
			from = e.Position
		}
	}
	return n, nil
}

// report prints, through result, the events folded per second between two
// samples, and as a detail those appended and how many events the lease
// holder was behind at the end.
func (p *foldProbe) report(ctx context.Context, result func(key string, value float64, unit string), start, end fold) error {
	secs := end.at.Sub(start.at).Seconds()
	if secs < 1 {
		detail("no fold rate: the throughput run ended within %.2f s", secs)
		return nil
	}
	folded, err := p.events(ctx, start.folded, end.folded)
	if err != nil {
		return err
	}
	appended, err := p.events(ctx, start.head, end.head)
	if err != nil {
		return err
	}
	behind, err := p.events(ctx, end.folded, end.head)
	if err != nil {
		return err
	}
	result("fold_per_s", float64(folded)/secs, "events/s")
	detail("lease holder %s folded %d events in %.1f s while %d were appended (%.0f/s); %d behind the head at the end",
		end.leader, folded, secs, appended, float64(appended)/secs, behind)
	return nil
}
