package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap/zapcore"

	"github.com/eventchat/eventchat/cmd/internal/imctl"
	"github.com/eventchat/eventchat/domain/call"
	"github.com/eventchat/eventchat/domain/wallet"
	"github.com/eventchat/eventchat/projections"
)

// config is the server's validated configuration. Flags win over the
// environment, which wins over defaults.
type config struct {
	HTTPAddr string
	DataDir  string
	Events   backend // IM_EVENTSTORE: kindPebble, kindSQLite or kindESDB
	Reads    backend // IM_READSTORE: kindSQLite or kindMongo
	Deltas   backend // IM_BUS: kindGoChannel or kindNATS
	// EventStore and ReadStore are the files (the Pebble directory) of
	// Events and Reads, empty when those are networked; Bus is IM_BUS as given.
	EventStore string
	ReadStore  string
	Bus        string
	// Blobs is where uploaded files are kept (IM_BLOBSTORE): blobsLocal, in
	// the data directory, or blobsGridFS, in the read store's MongoDB.
	Blobs          string
	AllowedOrigins []string
	LogLevel       zapcore.Level
	PprofAddr      string // profiling endpoints; off when empty
	// NodeName names this node in the projection lease of a shared read
	// store (IM_NODE_NAME); see defaultNodeName. A node claims it, and a
	// worker id, for NodeClaimTTL (IM_NODE_CLAIM_TTL) at a time.
	NodeName     string
	NodeClaimTTL time.Duration
	// LeaseTTL is how long the projection lease outlives its holder's last
	// renewal (IM_LEASE_TTL).
	LeaseTTL time.Duration
	// PresenceTTL is how long a node's members stay online to the other
	// nodes after its last announcement (IM_PRESENCE_TTL).
	PresenceTTL time.Duration
	// CallRingTimeout ends calls nobody answered (IM_CALL_RING_TIMEOUT).
	CallRingTimeout time.Duration
	// TopUpTimeout expires top-up orders nobody paid (IM_TOPUP_TIMEOUT).
	TopUpTimeout time.Duration
	// KEK is the key-encryption key that wraps the members' data keys
	// (IM_KEK): "" for none, file:<path> or vault:<transit key address>,
	// reached with VaultToken (VAULT_TOKEN).
	KEK        string
	VaultToken string
}

func loadConfig(args []string, getenv func(string) string) (config, error) {
	env := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("imserver", flag.ContinueOnError)
	addr := fs.String("http-addr", env("IM_HTTP_ADDR", imctl.DefaultHTTPAddr), "HTTP listen address (IM_HTTP_ADDR)")
	dataDir := fs.String("data-dir", env("IM_DATA_DIR", imctl.DefaultDataDir), "data directory (IM_DATA_DIR)")
	eventStore := fs.String("eventstore", env("IM_EVENTSTORE", ""), "event store: "+eventStoreSetting.forms+" (IM_EVENTSTORE; default pebble:<data dir>/events)")
	readStore := fs.String("readstore", env("IM_READSTORE", ""), "read store: "+readStoreSetting.forms+" (IM_READSTORE; default sqlite:<data dir>/read.db)")
	bus := fs.String("bus", env("IM_BUS", "gochannel"), "delta bus: "+busSetting.forms+" (IM_BUS)")
	blobs := fs.String("blobstore", env("IM_BLOBSTORE", ""), "where uploaded files are kept: local (<data dir>/blobs) or gridfs (the read store's MongoDB, shared by all nodes) (IM_BLOBSTORE; default gridfs when IM_READSTORE is mongodb, else local)")
	origins := fs.String("allowed-origins", env("IM_ALLOWED_ORIGINS", ""), "extra origins allowed to open the websocket, comma separated (IM_ALLOWED_ORIGINS); the server's own origin is always allowed")
	level := fs.String("log-level", env("IM_LOG_LEVEL", "info"), "debug | info | warn | error (IM_LOG_LEVEL)")
	pprofAddr := fs.String("pprof-addr", env("IM_PPROF_ADDR", ""), "serve /debug/pprof on this address, e.g. 127.0.0.1:6060 (IM_PPROF_ADDR; off when empty)")
	node := fs.String("node-name", env("IM_NODE_NAME", ""), "this node's name in the projection lease, unique among the nodes sharing a read store (IM_NODE_NAME; default: host, listen address and data dir)")
	leaseTTL := fs.String("lease-ttl", env("IM_LEASE_TTL", projections.DefaultLeaseTTL.String()), "how long the projection lease outlives a node that stopped renewing it; another node takes over within 1.2 times this (IM_LEASE_TTL)")
	claimTTL := fs.String("node-claim-ttl", env("IM_NODE_CLAIM_TTL", defaultNodeClaimTTL.String()), "how long the claims of this node's name and worker id last unless renewed; a node restarted after a crash waits up to this long for its name (IM_NODE_CLAIM_TTL)")
	presenceTTL := fs.String("presence-ttl", env("IM_PRESENCE_TTL", defaultPresenceTTL.String()), "how long a node's members stay online to the other nodes after its last announcement; it announces them every third of this (IM_PRESENCE_TTL)")
	ring := fs.String("call-ring-timeout", env("IM_CALL_RING_TIMEOUT", call.RingTimeout.String()), "how long a call rings before it ends as NoAnswer (IM_CALL_RING_TIMEOUT)")
	kekSetting := fs.String("kek", env("IM_KEK", ""), "key-encryption key wrapping the members' data keys: file:<path> (32 bytes or 64 hex digits, mode 600) or vault:https://<host>:8200/<transit mount>/<key> with VAULT_TOKEN (IM_KEK; none when empty)")
	topUp := fs.String("topup-timeout", env("IM_TOPUP_TIMEOUT", wallet.OrderTimeout.String()), "how long a top-up order waits for its payment before it expires (IM_TOPUP_TIMEOUT)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	c := config{HTTPAddr: *addr, DataDir: *dataDir, Bus: *bus, PprofAddr: *pprofAddr, NodeName: *node, KEK: *kekSetting, VaultToken: getenv("VAULT_TOKEN")}
	if c.NodeName == "" {
		c.NodeName = defaultNodeName(c.HTTPAddr, c.DataDir)
	}
	var errs []error
	if err := checkListenAddr("IM_HTTP_ADDR", c.HTTPAddr); err != nil {
		errs = append(errs, err)
	}
	if c.PprofAddr != "" {
		if err := checkListenAddr("IM_PPROF_ADDR", c.PprofAddr); err != nil {
			errs = append(errs, err)
		}
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("IM_DATA_DIR is empty"))
	}
	var err error
	if c.Events, err = eventStoreSetting.parse(*eventStore, "pebble:"+filepath.Join(c.DataDir, "events")); err != nil {
		errs = append(errs, err)
	}
	if c.Reads, err = readStoreSetting.parse(*readStore, "sqlite:"+filepath.Join(c.DataDir, "read.db")); err != nil {
		errs = append(errs, err)
	}
	if c.Deltas, err = busSetting.parse(c.Bus, "gochannel"); err != nil {
		errs = append(errs, err)
	}
	c.EventStore, c.ReadStore = c.Events.Path, c.Reads.Path
	if c.Blobs, err = blobStore(*blobs, c.Reads.Kind); err != nil {
		errs = append(errs, err)
	}
	for _, o := range strings.Split(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			c.AllowedOrigins = append(c.AllowedOrigins, o)
		}
	}
	if c.NodeClaimTTL, err = time.ParseDuration(*claimTTL); err != nil || c.NodeClaimTTL < minNodeClaimTTL {
		errs = append(errs, fmt.Errorf("IM_NODE_CLAIM_TTL=%q: want a duration of at least %s such as 5s", *claimTTL, minNodeClaimTTL))
	}
	if c.PresenceTTL, err = time.ParseDuration(*presenceTTL); err != nil || c.PresenceTTL < minPresenceTTL {
		errs = append(errs, fmt.Errorf("IM_PRESENCE_TTL=%q: want a duration of at least %s such as 6s", *presenceTTL, minPresenceTTL))
	}
	if c.CallRingTimeout, err = time.ParseDuration(*ring); err != nil || c.CallRingTimeout <= 0 {
		errs = append(errs, fmt.Errorf("IM_CALL_RING_TIMEOUT=%q: want a positive duration such as 60s", *ring))
	}
	if c.KEK != "" && !strings.HasPrefix(c.KEK, "file:") && !strings.HasPrefix(c.KEK, "vault:") {
		errs = append(errs, fmt.Errorf("IM_KEK=%q: want file:<path> or vault:https://<host>:8200/<mount>/<key>", c.KEK))
	}
	if c.TopUpTimeout, err = time.ParseDuration(*topUp); err != nil || c.TopUpTimeout <= 0 {
		errs = append(errs, fmt.Errorf("IM_TOPUP_TIMEOUT=%q: want a positive duration such as 15m", *topUp))
	}
	if c.LeaseTTL, err = time.ParseDuration(*leaseTTL); err != nil || c.LeaseTTL < minLeaseTTL || c.LeaseTTL > maxLeaseTTL {
		errs = append(errs, fmt.Errorf("IM_LEASE_TTL=%q: want a duration from %s to %s such as 3s", *leaseTTL, minLeaseTTL, maxLeaseTTL))
	}
	if err := c.LogLevel.UnmarshalText([]byte(*level)); err != nil {
		errs = append(errs, fmt.Errorf("IM_LOG_LEVEL=%q: %w", *level, err))
	}
	return c, errors.Join(errs...)
}

// The blob stores IM_BLOBSTORE selects.
const (
	blobsLocal  = "local"
	blobsGridFS = "gridfs"
)

// blobStore validates IM_BLOBSTORE: by default the files are where the read
// store is, so that nodes sharing a MongoDB read store share them too.
func blobStore(v string, reads backendKind) (string, error) {
	switch {
	case v == "" && reads == kindMongo:
		return blobsGridFS, nil
	case v == "":
		return blobsLocal, nil
	case v == blobsGridFS && reads != kindMongo:
		return "", errors.New("IM_BLOBSTORE=gridfs keeps the files in the read store's MongoDB: set IM_READSTORE=mongodb://... too")
	case v != blobsLocal && v != blobsGridFS:
		return "", fmt.Errorf("IM_BLOBSTORE=%q: want local or gridfs", v)
	}
	return v, nil
}

// The lease's holder renews it every IM_LEASE_TTL/5 and stops writing
// IM_LEASE_TTL/3 before it ends: below a second one slow renewal would stop
// the projections; above minutes a crash would stop them as long.
const (
	minLeaseTTL = time.Second
	maxLeaseTTL = 5 * time.Minute
)

// The node claims last a few seconds: a node restarted after a crash waits
// that long for its name.
const (
	defaultNodeClaimTTL = 5 * time.Second
	minNodeClaimTTL     = 100 * time.Millisecond
)

// A node announces its members every third of the presence TTL: a killed
// node's members go offline to the others within the TTL and a third.
const (
	defaultPresenceTTL = 6 * time.Second
	minPresenceTTL     = 300 * time.Millisecond
)

// defaultNodeName is the host, the listen address as configured and the
// data directory: a node restarted after a crash takes its projection lease
// back at once instead of waiting for it to end, and nodes on one read
// store differ in one of the three.
func defaultNodeName(addr, dataDir string) string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown-host"
	}
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	return host + " " + addr + " " + dataDir
}

func checkListenAddr(name, addr string) error {
	if addr == "" {
		return fmt.Errorf("%s is empty", name)
	}
	if _, port, err := net.SplitHostPort(addr); err != nil || !validPort(port) {
		return fmt.Errorf("%s=%q: want host:port or :port, e.g. :8080", name, addr)
	}
	return nil
}

// backendKind names the adapter a store or bus setting selects.
type backendKind string

const (
	kindSQLite    backendKind = "sqlite"
	kindPebble    backendKind = "pebble"
	kindESDB      backendKind = "esdb"
	kindMongo     backendKind = "mongodb"
	kindGoChannel backendKind = "gochannel"
	kindNATS      backendKind = "nats"
)

// backend is a validated IM_EVENTSTORE, IM_READSTORE or IM_BUS value.
type backend struct {
	Kind  backendKind
	Path  string   // the database file, for kindSQLite; the directory, for kindPebble
	URL   string   // the connection string as given, for the networked kinds
	Hosts []string // host or host:port of each server in URL
}

// String is the setting without its user info, fit for logs.
func (b backend) String() string {
	switch b.Kind {
	case kindSQLite, kindPebble:
		return string(b.Kind) + ":" + b.Path
	case kindGoChannel:
		return string(kindGoChannel)
	}
	return redact(b.URL)
}

// setting is what one variable accepts: its embedded kind, and the URL
// schemes of the networked kind.
type setting struct {
	name    string
	local   backendKind
	schemes map[string]backendKind
	forms   string // the accepted forms, for help and errors
	pebble  bool   // also takes pebble:<dir>
}

var (
	eventStoreSetting = setting{
		name: "IM_EVENTSTORE", local: kindSQLite, pebble: true,
		schemes: map[string]backendKind{"esdb": kindESDB, "esdb+discover": kindESDB},
		forms:   "pebble:<dir>, sqlite:<path>, esdb://host:port[?tls=false] or esdb+discover://host:port",
	}
	readStoreSetting = setting{
		name: "IM_READSTORE", local: kindSQLite,
		schemes: map[string]backendKind{"mongodb": kindMongo, "mongodb+srv": kindMongo},
		forms:   "sqlite:<path>, mongodb://host:port/[?replicaSet=rs0] or mongodb+srv://host",
	}
	busSetting = setting{
		name: "IM_BUS", local: kindGoChannel,
		schemes: map[string]backendKind{"nats": kindNATS},
		forms:   "gochannel or nats://host:port",
	}
)

// parse validates v, or def when v is empty.
func (s setting) parse(v, def string) (backend, error) {
	if v == "" {
		v = def
	}
	fail := func(format string, a ...any) (backend, error) {
		return backend{}, fmt.Errorf("%s=%q: %s; want %s", s.name, redact(v), fmt.Sprintf(format, a...), s.forms)
	}
	switch {
	case s.local == kindGoChannel && v == string(kindGoChannel):
		return backend{Kind: kindGoChannel}, nil
	case s.local == kindSQLite && strings.HasPrefix(v, "sqlite:"), s.pebble && strings.HasPrefix(v, "pebble:"):
		kind, path, _ := strings.Cut(v, ":")
		if path == "" {
			return fail("empty path")
		}
		if strings.HasPrefix(path, "//") {
			return fail("%s takes a file path, not a URL: write %s:/abs/path or %s:rel/path", kind, kind, kind)
		}
		return backend{Kind: backendKind(kind), Path: path}, nil
	}
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return fail("not a recognised value")
	}
	kind, ok := s.schemes[strings.ToLower(scheme)]
	if !ok {
		return fail("unknown scheme %q", scheme)
	}
	hosts, path, err := parseAuthority(rest)
	if err != nil {
		return fail("malformed URL: %v", err)
	}
	switch {
	case strings.EqualFold(scheme, "mongodb+srv") && (len(hosts) != 1 || strings.Contains(hosts[0], ":")):
		return fail("mongodb+srv takes one host name without a port")
	case kind == kindNATS && len(hosts) != 1:
		return fail("nats takes one server")
	case kind != kindMongo && path != "" && path != "/":
		return fail("unexpected path %q", path)
	}
	return backend{Kind: kind, URL: v, Hosts: hosts}, nil
}

// parseAuthority splits what follows "scheme://" into its servers and path.
// net/url cannot be used: it rejects lists like "a:27017,b", which the
// MongoDB and EventStoreDB drivers accept, and its errors quote passwords.
func parseAuthority(rest string) (hosts []string, path string, err error) {
	authority, tail := rest, ""
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		authority, tail = rest[:i], rest[i:]
	}
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		authority = authority[i+1:]
	}
	if authority == "" {
		return nil, "", errors.New("no host")
	}
	for _, h := range strings.Split(authority, ",") {
		if err := checkHost(h); err != nil {
			return nil, "", err
		}
		hosts = append(hosts, h)
	}
	path, query, _ := strings.Cut(tail, "?")
	if _, err := url.ParseQuery(query); err != nil {
		return nil, "", fmt.Errorf("query: %w", err)
	}
	return hosts, path, nil
}

// checkHost accepts host, host:port, [ipv6] and [ipv6]:port.
func checkHost(h string) error {
	host := h
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		host = h[1 : len(h)-1]
	} else if strings.Contains(h, ":") {
		var port string
		var err error
		if host, port, err = net.SplitHostPort(h); err != nil || !validPort(port) {
			return fmt.Errorf("bad host:port %q", h)
		}
		host = strings.Trim(host, "[]")
	}
	if host == "" {
		return fmt.Errorf("empty host in %q", h)
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._:%", r)) {
			return fmt.Errorf("bad host %q", h)
		}
	}
	return nil
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 0 && n <= 65535
}

// redact hides the user info of a connection string.
func redact(v string) string {
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return v
	}
	end := len(rest)
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		end = i
	}
	if i := strings.LastIndex(rest[:end], "@"); i >= 0 {
		return scheme + "://xxxxx@" + rest[i+1:]
	}
	return v
}
