package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap/zapcore"
)

// config is the server's validated configuration. Flags win over the
// environment, which wins over defaults.
type config struct {
	HTTPAddr       string
	DataDir        string
	EventStore     string // sqlite:<path>
	ReadStore      string // sqlite:<path>
	Bus            string // gochannel
	AllowedOrigins []string
	LogLevel       zapcore.Level
	PprofAddr      string // profiling endpoints; off when empty
}

func loadConfig(args []string, getenv func(string) string) (config, error) {
	env := func(k, def string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("imserver", flag.ContinueOnError)
	addr := fs.String("http-addr", env("IM_HTTP_ADDR", ":8080"), "HTTP listen address (IM_HTTP_ADDR)")
	dataDir := fs.String("data-dir", env("IM_DATA_DIR", "./data"), "data directory (IM_DATA_DIR)")
	eventStore := fs.String("eventstore", env("IM_EVENTSTORE", ""), "event store: sqlite:<path> (IM_EVENTSTORE; default sqlite:<data dir>/events.db)")
	readStore := fs.String("readstore", env("IM_READSTORE", ""), "read store: sqlite:<path> (IM_READSTORE; default sqlite:<data dir>/read.db)")
	bus := fs.String("bus", env("IM_BUS", "gochannel"), "delta bus: gochannel (IM_BUS)")
	origins := fs.String("allowed-origins", env("IM_ALLOWED_ORIGINS", ""), "extra origins allowed to open the websocket, comma separated (IM_ALLOWED_ORIGINS); the server's own origin is always allowed")
	level := fs.String("log-level", env("IM_LOG_LEVEL", "info"), "debug | info | warn | error (IM_LOG_LEVEL)")
	pprofAddr := fs.String("pprof-addr", env("IM_PPROF_ADDR", ""), "serve /debug/pprof on this address, e.g. 127.0.0.1:6060 (IM_PPROF_ADDR; off when empty)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	c := config{HTTPAddr: *addr, DataDir: *dataDir, Bus: *bus, PprofAddr: *pprofAddr}
	var errs []error
	if c.HTTPAddr == "" {
		errs = append(errs, errors.New("IM_HTTP_ADDR is empty"))
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("IM_DATA_DIR is empty"))
	}
	var err error
	if c.EventStore, err = sqliteURL("IM_EVENTSTORE", *eventStore, filepath.Join(c.DataDir, "events.db")); err != nil {
		errs = append(errs, err)
	}
	if c.ReadStore, err = sqliteURL("IM_READSTORE", *readStore, filepath.Join(c.DataDir, "read.db")); err != nil {
		errs = append(errs, err)
	}
	if c.Bus != "gochannel" {
		errs = append(errs, fmt.Errorf("IM_BUS=%q: this build supports gochannel", c.Bus))
	}
	for _, o := range strings.Split(*origins, ",") {
		if o = strings.TrimSpace(o); o != "" {
			c.AllowedOrigins = append(c.AllowedOrigins, o)
		}
	}
	if err := c.LogLevel.UnmarshalText([]byte(*level)); err != nil {
		errs = append(errs, fmt.Errorf("IM_LOG_LEVEL=%q: %w", *level, err))
	}
	return c, errors.Join(errs...)
}

// sqliteURL resolves a store setting to a file path.
func sqliteURL(name, v, def string) (string, error) {
	if v == "" {
		return def, nil
	}
	path, ok := strings.CutPrefix(v, "sqlite:")
	if !ok || path == "" {
		return "", fmt.Errorf("%s=%q: expected sqlite:<path>", name, v)
	}
	return path, nil
}

// secret reads the server's signing secret, creating it on first start.
func secret(dataDir string) ([]byte, error) {
	path := filepath.Join(dataDir, "secret.key")
	b, err := os.ReadFile(path)
	if err == nil {
		if len(b) < 32 {
			return nil, fmt.Errorf("%s holds %d bytes, want 32: restore it or remove it to sign out everyone", path, len(b))
		}
		return b, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	b = make([]byte, 32)
	if _, err := randRead(b); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return b, nil
}
