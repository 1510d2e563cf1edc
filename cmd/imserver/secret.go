package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/eventchat/eventchat/adapters/authtoken"
	"github.com/eventchat/eventchat/nodes"
)

// secretClaim is the claim whose owner is the signing secret the nodes
// sharing a MongoDB read store sign and verify tokens with. It never ends:
// the first node to start proposes its secret, every later one reads it.
const secretClaim = "signing-secret"

// secret is the signing secret. On the embedded profile it is the data
// directory's secret.key, made on first start. With a MongoDB read store it
// is the one every node shares, kept in the nodes' claims (a node whose
// data directory has a secret.key proposes it, so that an upgraded node
// keeps its tokens good) and written to a data directory that has none, for
// imctl; a data directory whose secret.key differs is refused.
func secret(ctx context.Context, cfg config, claims nodes.Claims) ([]byte, error) {
	if cfg.Reads.Kind != kindMongo {
		return authtoken.LoadSecret(cfg.DataDir, true)
	}
	local, err := authtoken.LoadSecret(cfg.DataDir, false)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	proposed := local
	if proposed == nil {
		proposed = make([]byte, 32)
		if _, err := rand.Read(proposed); err != nil {
			return nil, err
		}
	}
	forever := time.Unix(0, math.MaxInt64)
	c, err := claims.TakeClaim(ctx, secretClaim, hex.EncodeToString(proposed), time.Now(), forever)
	if err != nil {
		return nil, fmt.Errorf("the shared signing secret: %w", err)
	}
	shared, err := hex.DecodeString(c.Owner)
	if err != nil || len(shared) < 32 {
		return nil, fmt.Errorf("the shared signing secret (claim %q in the read store) is not 32 bytes in hex", secretClaim)
	}
	path := filepath.Join(cfg.DataDir, authtoken.SecretFile)
	switch {
	case local == nil:
		if err := os.WriteFile(path, shared, 0o600); err != nil {
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
	case !bytes.Equal(local, shared):
		return nil, fmt.Errorf("%s differs from the signing secret the nodes of the read store %s share: "+
			"remove it (this node takes the shared one, and the tokens it signed end)", path, cfg.Reads)
	}
	return shared, nil
}
