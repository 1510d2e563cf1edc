package main

import (
	"fmt"
	"go/version"
	"maps"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"gopkg.in/yaml.v3"

	"github.com/eventchat/eventchat/adapters/httpapi"
)

// deployment is the text of the files that describe the production profile.
type deployment struct {
	compose, dockerfile, nginx, goMod string
}

func readDeployment() deployment {
	GinkgoHelper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", name))
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}
	return deployment{compose: read("compose.yaml"), dockerfile: read("Dockerfile"), nginx: read("deploy/nginx.conf"), goMod: read("go.mod")}
}

// with returns d with one unique piece of one file replaced.
func (d deployment) with(file, old, replacement string) deployment {
	GinkgoHelper()
	text := map[string]*string{"compose.yaml": &d.compose, "Dockerfile": &d.dockerfile, "deploy/nginx.conf": &d.nginx}[file]
	Expect(text).NotTo(BeNil(), "unknown file %s", file)
	Expect(strings.Count(*text, old)).To(Equal(1), "%q must occur once in %s", old, file)
	*text = strings.Replace(*text, old, replacement, 1)
	return d
}

var _ = Describe("The production profile", func() {
	It("agrees with the server's configuration", func() {
		Expect(readDeployment().problems()).To(BeEmpty())
	})

	DescribeTable("notices when a file drifts",
		func(file, old, replacement, want string) {
			Expect(readDeployment().with(file, old, replacement).problems()).To(ContainElement(ContainSubstring(want)))
		},
		Entry("a floating image", "compose.yaml", "image: mongo:7.0", "image: mongo:latest", `service mongo: image mongo:latest is not pinned to a version`),
		Entry("an image without a tag", "compose.yaml", "image: nats:2.10-alpine", "image: nats", `service nats: image nats is not pinned`),
		Entry("a service without a health check", "compose.yaml", "    healthcheck:\n      # /healthz", "    x-unchecked:\n      # /healthz", "service nats: no healthcheck"),
		Entry("a disabled health check", "compose.yaml", `["CMD", "wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8222/healthz"]`, `["NONE"]`, "service nats: healthcheck disabled"),
		Entry("a bus the server refuses", "compose.yaml", "IM_BUS: nats://nats:4222", "IM_BUS: kafka://kafka:9092", `service imserver-1: the server refuses its configuration: IM_BUS="kafka://kafka:9092": unknown scheme`),
		Entry("an embedded store in the production profile", "compose.yaml", "IM_READSTORE: mongodb://mongo:27017/?replicaSet=rs0", "IM_READSTORE: sqlite:/data/read.db", "service imserver-1: IM_READSTORE selects sqlite, want mongodb"),
		Entry("uploads on each node's disk", "compose.yaml", "IM_LOG_LEVEL: info", "IM_LOG_LEVEL: info\n      IM_BLOBSTORE: local", "service imserver-1: IM_BLOBSTORE selects local, want gridfs"),
		Entry("a misspelt variable", "compose.yaml", "IM_EVENTSTORE:", "IM_EVENTSTOR:", "service imserver-1: IM_EVENTSTOR is no variable of the server"),
		Entry("a store host that is no service", "compose.yaml", "mongodb://mongo:27017/", "mongodb://mongodb:27017/", `service imserver-1: IM_READSTORE reaches "mongodb", which is no service`),
		Entry("a store port the service does not open", "compose.yaml", "esdb://eventstore:2113?", "esdb://eventstore:1113?", "service imserver-1: IM_EVENTSTORE reaches eventstore on port 1113, which it does not publish or expose"),
		Entry("a store the node does not wait for", "compose.yaml", "    depends_on:\n      eventstore:\n        condition: service_healthy\n      mongo:\n        condition: service_healthy\n      nats:\n        condition: service_healthy\n    restart",
			"    depends_on:\n      eventstore:\n        condition: service_healthy\n      mongo:\n        condition: service_healthy\n    restart", "service imserver-1: does not wait for nats to be healthy"),
		Entry("a dependency on no service", "compose.yaml", "  nats:\n    image:", "  natsd:\n    image:", `service imserver-1: depends on "nats", which is no service`),
		Entry("a dependency that does not wait for health", "compose.yaml", "condition: service_healthy\n      imserver-1:\n        condition: service_healthy", "condition: service_healthy\n      imserver-1:\n        condition: service_started", `service imserver-2: waits for imserver-1 with condition "service_started", want service_healthy`),
		Entry("a listen port the nodes do not expose", "compose.yaml", `IM_HTTP_ADDR: ":8080"`, `IM_HTTP_ADDR: ":9090"`, "service imserver-1: exposes 8080, but IM_HTTP_ADDR listens on 9090"),
		Entry("a health check off the readiness endpoint", "compose.yaml", "http://127.0.0.1:8080/readyz\"]\n      interval: 5s\n      timeout: 3s\n      retries: 6\n      #", "http://127.0.0.1:8080/healthz\"]\n      interval: 5s\n      timeout: 3s\n      retries: 6\n      #", "service imserver-1: healthcheck does not probe /readyz on port 8080"),
		Entry("a data directory on no volume", "compose.yaml", "      - imserver-data:/data\n    healthcheck: &", "      - imserver-data:/var/data\n    healthcheck: &", "service imserver-1: IM_DATA_DIR /data is on no volume"),
		Entry("a single node", "compose.yaml", "build: .\n    environment: *imserver-env", "image: eventchat/imserver:1.0\n    environment: *imserver-env", "want two or more imserver nodes built from the Dockerfile, found 1"),
		Entry("a proxy balancing to a wrong port", "deploy/nginx.conf", "server imserver-2:8080;", "server imserver-2:8081;", "deploy/nginx.conf does not balance to imserver-2:8080"),
		Entry("a proxy balancing to no node", "deploy/nginx.conf", "server imserver-2:8080;", "server imserver-2:8080;\n        server imserver-3:8080;", "deploy/nginx.conf balances to imserver-3, which is no imserver node"),
		Entry("a proxy listening off its published port", "deploy/nginx.conf", "listen 8080;", "listen 80;", "deploy/nginx.conf listens on [80], but service proxy publishes [8080]"),
		Entry("a proxy without a security header", "deploy/nginx.conf", "        add_header X-Frame-Options \"DENY\" always;\n", "", "deploy/nginx.conf does not add X-Frame-Options on every answer"),
		Entry("a proxy policy other than the server's", "deploy/nginx.conf", "frame-ancestors 'none'\";", "frame-ancestors *\";", "deploy/nginx.conf sets Content-Security-Policy to \"default-src"),
		Entry("a proxy passing the node's header as well", "deploy/nginx.conf", "proxy_hide_header Referrer-Policy;", "", "deploy/nginx.conf does not hide the node's Referrer-Policy: answers would carry it twice"),
		Entry("a location adding headers of its own", "deploy/nginx.conf", "proxy_read_timeout 300s;", "proxy_read_timeout 300s;\n            add_header Cache-Control \"no-store\";",
			"deploy/nginx.conf: a location adds headers of its own, so the security headers are not inherited there"),
		Entry("a Dockerfile exposing another port", "Dockerfile", "EXPOSE 8080", "EXPOSE 9090", "Dockerfile: EXPOSE [9090], but the nodes listen on 8080"),
		Entry("a Dockerfile default the server refuses", "Dockerfile", "IM_HTTP_ADDR=:8080", "IM_HTTP_ADDR=8080", `Dockerfile: the server refuses its ENV: IM_HTTP_ADDR="8080"`),
		Entry("a floating base image", "Dockerfile", "FROM alpine:3.22", "FROM alpine", "Dockerfile: image alpine is not pinned"),
		Entry("a Go image older than go.mod", "Dockerfile", "golang:1.26.8", "golang:1.26", "Dockerfile: golang:1.26 may be older than go.mod's go 1.26.8"),
		Entry("a binary needing libc", "Dockerfile", "CGO_ENABLED=0", "CGO_ENABLED=1", "Dockerfile: the Go build must set CGO_ENABLED=0"),
		Entry("a root user", "Dockerfile", "USER 10001:10001\n", "", "Dockerfile: runs as root"),
		Entry("a data directory that is no volume", "Dockerfile", "IM_DATA_DIR=/data", "IM_DATA_DIR=/srv", "Dockerfile: IM_DATA_DIR /srv is not a VOLUME"),
		Entry("a Dockerfile health check off the readiness endpoint", "Dockerfile", "/readyz", "/healthz", "Dockerfile: HEALTHCHECK does not probe /readyz"),
	)
})

// problems lists every way d disagrees with the server's configuration.
func (d deployment) problems() []string {
	var c composeFile
	if err := yaml.Unmarshal([]byte(d.compose), &c); err != nil {
		return []string{"compose.yaml: " + err.Error()}
	}
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	for _, name := range slices.Sorted(maps.Keys(c.Services)) {
		s := c.Services[name]
		switch {
		case s.Image != "":
			if p := unpinned(s.Image); p != "" {
				add("service %s: %s", name, p)
			}
		case s.Build.Context == "":
			add("service %s: neither image nor build", name)
		}
		switch h := s.Healthcheck; {
		case h == nil:
			add("service %s: no healthcheck", name)
		case h.Disable || len(h.Test) == 0 || h.Test[0] == "NONE":
			add("service %s: healthcheck disabled", name)
		}
		for _, dep := range slices.Sorted(maps.Keys(s.DependsOn)) {
			if _, ok := c.Services[dep]; !ok {
				add("service %s: depends on %q, which is no service", name, dep)
			} else if cond := s.DependsOn[dep]; cond != "service_healthy" {
				add("service %s: waits for %s with condition %q, want service_healthy", name, dep, cond)
			}
		}
	}
	nodes := c.nodes()
	if len(nodes) < 2 {
		add("want two or more imserver nodes built from the Dockerfile, found %d", len(nodes))
	}
	ports, nodePorts := map[string]bool{}, map[string]string{}
	for _, name := range nodes {
		port, problems := c.checkNode(name)
		out = append(out, problems...)
		if port != "" {
			ports[port], nodePorts[name] = true, port
		}
	}
	out = append(out, c.checkProxy(nodePorts, d.nginx)...)
	out = append(out, checkSecurityHeaders(d.nginx)...)
	return append(out, checkDockerfile(d.dockerfile, d.goMod, slices.Sorted(maps.Keys(ports)))...)
}

// nodes are the services built from the repository's Dockerfile.
func (c composeFile) nodes() []string {
	var nodes []string
	for _, name := range slices.Sorted(maps.Keys(c.Services)) {
		b := c.Services[name].Build
		if (b.Context == "." || b.Context == "./") && (b.Dockerfile == "" || b.Dockerfile == "Dockerfile") {
			nodes = append(nodes, name)
		}
	}
	return nodes
}

// defaultPorts are the ports the drivers use when a URL names none.
var defaultPorts = map[backendKind]string{kindESDB: "2113", kindMongo: "27017", kindNATS: "4222"}

// checkNode checks a node's variables against loadConfig and the services
// they reach; it returns the port the node listens on.
func (c composeFile) checkNode(name string) (string, []string) {
	var out []string
	add := func(format string, a ...any) {
		out = append(out, fmt.Sprintf("service %s: "+format, append([]any{name}, a...)...))
	}
	s := c.Services[name]
	known := variables()
	for _, k := range slices.Sorted(maps.Keys(s.Environment)) {
		if strings.HasPrefix(k, "IM_") && !known[k] {
			add("%s is no variable of the server", k)
		}
	}
	cfg, err := loadConfig(nil, func(k string) string { return s.Environment[k] })
	if err != nil {
		add("the server refuses its configuration: %v", err)
		return "", out
	}
	for _, b := range []struct {
		variable string
		got      backend
		want     backendKind
	}{{"IM_EVENTSTORE", cfg.Events, kindESDB}, {"IM_READSTORE", cfg.Reads, kindMongo}, {"IM_BUS", cfg.Deltas, kindNATS}} {
		if b.got.Kind != b.want {
			add("%s selects %s, want %s", b.variable, b.got.Kind, b.want)
			continue
		}
		for _, h := range b.got.Hosts {
			host, port := h, defaultPorts[b.want]
			if hp, p, err := net.SplitHostPort(h); err == nil {
				host, port = hp, p
			}
			target, ok := c.Services[host]
			switch {
			case !ok:
				add("%s reaches %q, which is no service", b.variable, host)
			case !slices.Contains(target.containerPorts(), port):
				add("%s reaches %s on port %s, which it does not publish or expose", b.variable, host, port)
			}
			if _, waits := s.DependsOn[host]; ok && !waits {
				add("does not wait for %s to be healthy", host)
			}
		}
	}
	if cfg.Blobs != blobsGridFS {
		add("IM_BLOBSTORE selects %s, want gridfs: a file uploaded through one node must be served by all", cfg.Blobs)
	}
	_, port, _ := net.SplitHostPort(cfg.HTTPAddr)
	exposed := s.containerPorts()
	if len(exposed) == 0 {
		add("neither publishes nor exposes IM_HTTP_ADDR's port %s", port)
	}
	for _, p := range exposed {
		if p != port {
			add("exposes %s, but IM_HTTP_ADDR listens on %s", p, port)
		}
	}
	if h := s.Healthcheck; h != nil && !strings.Contains(strings.Join(h.Test, " "), ":"+port+"/readyz") {
		add("healthcheck does not probe /readyz on port %s", port)
	}
	if !slices.ContainsFunc(s.Volumes, func(v string) bool { return volumeTarget(v) == cfg.DataDir }) {
		add("IM_DATA_DIR %s is on no volume", cfg.DataDir)
	}
	return port, out
}

// variables are the environment variables loadConfig reads.
func variables() map[string]bool {
	known := map[string]bool{}
	_, _ = loadConfig(nil, func(k string) string { known[k] = true; return "" })
	return known
}

var (
	upstreamServer = regexp.MustCompile(`(?m)^\s*server\s+([\w.-]+):(\d+)\b[^;]*;`)
	nginxListen    = regexp.MustCompile(`(?m)^\s*listen\s+(\d+)\b[^;]*;`)
)

// checkProxy checks that the service running deploy/nginx.conf balances
// between every node on the port it listens on, and listens where it
// publishes.
func (c composeFile) checkProxy(nodePorts map[string]string, conf string) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	proxy := ""
	for _, name := range slices.Sorted(maps.Keys(c.Services)) {
		if slices.ContainsFunc(c.Services[name].Volumes, func(v string) bool { return strings.HasPrefix(v, "./deploy/nginx.conf:") }) {
			proxy = name
		}
	}
	if proxy == "" {
		return []string{"no service runs deploy/nginx.conf: the nodes have no single address"}
	}
	balanced := map[string]bool{}
	for _, m := range upstreamServer.FindAllStringSubmatch(conf, -1) {
		balanced[m[1]+":"+m[2]] = true
		if _, ok := nodePorts[m[1]]; !ok {
			add("deploy/nginx.conf balances to %s, which is no imserver node", m[1])
		}
	}
	for _, n := range slices.Sorted(maps.Keys(nodePorts)) {
		if port := nodePorts[n]; !balanced[n+":"+port] {
			add("deploy/nginx.conf does not balance to %s:%s", n, port)
		}
		if _, ok := c.Services[proxy].DependsOn[n]; !ok {
			add("service %s: does not wait for %s, whose name nginx resolves at start", proxy, n)
		}
	}
	var listens []string
	for _, m := range nginxListen.FindAllStringSubmatch(conf, -1) {
		listens = append(listens, m[1])
	}
	published := c.Services[proxy].containerPorts()
	if len(listens) == 0 || !slices.Equal(listens, published) {
		add("deploy/nginx.conf listens on %v, but service %s publishes %v", listens, proxy, published)
	}
	return out
}

var (
	nginxAddHeader  = regexp.MustCompile(`(?m)^\s*add_header\s+(\S+)\s+("[^"]*"|\$\w+)\s+always;`)
	nginxHideHeader = regexp.MustCompile(`(?m)^\s*proxy_hide_header\s+(\S+);`)
	nginxLocation   = regexp.MustCompile(`location[^{]*\{[^}]*\badd_header\b`)
)

// checkSecurityHeaders checks that deploy/nginx.conf answers with the
// server's security headers, once each, on every answer.
func checkSecurityHeaders(conf string) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf("deploy/nginx.conf"+format, a...)) }
	added, hidden := map[string]string{}, map[string]bool{}
	for _, m := range nginxAddHeader.FindAllStringSubmatch(conf, -1) {
		added[m[1]] = unquote(conf, m[2])
	}
	for _, m := range nginxHideHeader.FindAllStringSubmatch(conf, -1) {
		hidden[m[1]] = true
	}
	for _, h := range httpapi.SecurityHeaders {
		switch got, ok := added[h[0]]; {
		case !ok:
			add(" does not add %s on every answer (add_header ... always)", h[0])
		case got != h[1]:
			add(" sets %s to %q, the server to %q", h[0], got, h[1])
		}
		if !hidden[h[0]] {
			add(" does not hide the node's %s: answers would carry it twice", h[0])
		}
	}
	if nginxLocation.MatchString(conf) {
		add(": a location adds headers of its own, so the security headers are not inherited there")
	}
	return out
}

// unquote is the text of an add_header value: a quoted string, or a
// variable's value when the node sent no such header (its map's entry for
// the empty string).
func unquote(conf, v string) string {
	if strings.HasPrefix(v, "$") {
		block := regexp.MustCompile(`map\s+\S+\s+\` + v + `\s*\{([^}]*)\}`).FindStringSubmatch(conf)
		if block == nil {
			return v
		}
		empty := regexp.MustCompile(`(?m)^\s*''\s+("[^"]*");`).FindStringSubmatch(block[1])
		if empty == nil {
			return v
		}
		v = empty[1]
	}
	return strings.Trim(v, `"`)
}

// checkDockerfile checks the image's defaults against loadConfig and the
// port the compose nodes listen on.
func checkDockerfile(text, goMod string, nodePorts []string) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf("Dockerfile: "+format, a...)) }
	df := parseDockerfile(text)
	goVersion := regexp.MustCompile(`(?m)^go (\S+)`).FindStringSubmatch(goMod)
	stages := map[string]bool{}
	for _, from := range df["FROM"] {
		args := slices.DeleteFunc(strings.Fields(from), func(a string) bool { return strings.HasPrefix(a, "--") })
		if len(args) == 0 {
			add("FROM without an image")
			continue
		}
		if image := args[0]; !stages[image] {
			if p := unpinned(image); p != "" {
				add("%s", p)
			}
			if tag, ok := strings.CutPrefix(image, "golang:"); ok && goVersion != nil &&
				version.Compare("go"+regexp.MustCompile(`^\d+\.\d+(\.\d+)?`).FindString(tag), "go"+goVersion[1]) < 0 {
				add("%s may be older than go.mod's go %s, and the golang images build with GOTOOLCHAIN=local", image, goVersion[1])
			}
		}
		if len(args) >= 3 && strings.EqualFold(args[1], "AS") {
			stages[args[2]] = true
		}
	}
	env := map[string]string{}
	for _, e := range df["ENV"] {
		for _, kv := range strings.Fields(e) {
			if k, v, ok := strings.Cut(kv, "="); ok {
				env[k] = v
			}
		}
	}
	cfg, err := loadConfig(nil, func(k string) string { return env[k] })
	if err != nil {
		add("the server refuses its ENV: %v", err)
	}
	var exposed []string
	for _, e := range df["EXPOSE"] {
		for _, p := range strings.Fields(e) {
			exposed = append(exposed, strings.TrimSuffix(p, "/tcp"))
		}
	}
	if _, port, _ := net.SplitHostPort(cfg.HTTPAddr); err == nil && !slices.Equal(exposed, []string{port}) {
		add("EXPOSE %v, but ENV IM_HTTP_ADDR listens on %s", exposed, port)
	}
	if !slices.Equal(exposed, nodePorts) {
		add("EXPOSE %v, but the nodes listen on %s", exposed, strings.Join(nodePorts, ", "))
	}
	var volumes []string
	for _, v := range df["VOLUME"] {
		volumes = append(volumes, strings.Fields(strings.NewReplacer("[", " ", "]", " ", ",", " ", `"`, " ").Replace(v))...)
	}
	if err == nil && !slices.Contains(volumes, cfg.DataDir) {
		add("IM_DATA_DIR %s is not a VOLUME", cfg.DataDir)
	}
	if !slices.ContainsFunc(df["RUN"], func(r string) bool { return strings.Contains(r, "CGO_ENABLED=0") && strings.Contains(r, "go build") }) {
		add("the Go build must set CGO_ENABLED=0: the final image has no glibc")
	}
	users := df["USER"]
	if len(users) == 0 || slices.Contains([]string{"root", "0", "0:0", "root:root"}, users[len(users)-1]) {
		add("runs as root")
	}
	if !slices.ContainsFunc(df["HEALTHCHECK"], func(h string) bool { return strings.Contains(h, "/readyz") }) {
		add("HEALTHCHECK does not probe /readyz")
	}
	return out
}

// parseDockerfile returns the arguments of each instruction, by instruction.
// USER, EXPOSE, ENV and VOLUME of the final stage follow those of earlier
// stages, which the checks above rely on.
func parseDockerfile(text string) map[string][]string {
	out := map[string][]string{}
	joined := strings.ReplaceAll(text, "\\\n", " ")
	for _, line := range strings.Split(joined, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		instruction, args, _ := strings.Cut(line, " ")
		out[strings.ToUpper(instruction)] = append(out[strings.ToUpper(instruction)], strings.TrimSpace(args))
	}
	return out
}

var versionTag = regexp.MustCompile(`^v?\d+`)

// unpinned says why image is not pinned to a version, or returns "".
func unpinned(image string) string {
	if strings.Contains(image, "@sha256:") {
		return ""
	}
	tag := ""
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		tag = image[i+1:]
	}
	if tag == "" || tag == "latest" || !versionTag.MatchString(tag) {
		return fmt.Sprintf("image %s is not pinned to a version", image)
	}
	return ""
}

// composeFile is the part of compose.yaml the server's configuration
// constrains.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
}

type composeService struct {
	Image       string         `yaml:"image"`
	Build       composeBuild   `yaml:"build"`
	Environment composeEnv     `yaml:"environment"`
	Ports       []string       `yaml:"ports"`
	Expose      []string       `yaml:"expose"`
	Volumes     []string       `yaml:"volumes"`
	Healthcheck *composeHealth `yaml:"healthcheck"`
	DependsOn   composeDeps    `yaml:"depends_on"`
}

// containerPorts are the ports the service opens to the other services.
func (s composeService) containerPorts() []string {
	var ports []string
	for _, p := range append(slices.Clone(s.Ports), s.Expose...) {
		p = strings.TrimSuffix(strings.TrimSuffix(p, "/tcp"), "/udp")
		ports = append(ports, p[strings.LastIndex(p, ":")+1:])
	}
	return ports
}

// volumeTarget is where a short-syntax volume is mounted.
func volumeTarget(v string) string {
	parts := strings.Split(v, ":")
	if len(parts) == 1 {
		return parts[0]
	}
	return parts[1]
}

// composeBuild is build: <context> or build: {context, dockerfile}.
type composeBuild struct {
	Context    string `yaml:"context"`
	Dockerfile string `yaml:"dockerfile"`
}

func (b *composeBuild) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		b.Context = n.Value
		return nil
	}
	type long composeBuild
	return n.Decode((*long)(b))
}

// composeEnv is environment as a map or as a list of KEY=value.
type composeEnv map[string]string

func (e *composeEnv) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return n.Decode((*map[string]string)(e))
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	*e = composeEnv{}
	for _, kv := range list {
		k, v, _ := strings.Cut(kv, "=")
		(*e)[k] = v
	}
	return nil
}

// composeDeps maps each dependency to its condition; the list form has none.
type composeDeps map[string]string

func (d *composeDeps) UnmarshalYAML(n *yaml.Node) error {
	*d = composeDeps{}
	if n.Kind == yaml.SequenceNode {
		var list []string
		if err := n.Decode(&list); err != nil {
			return err
		}
		for _, name := range list {
			(*d)[name] = ""
		}
		return nil
	}
	var long map[string]struct {
		Condition string `yaml:"condition"`
	}
	if err := n.Decode(&long); err != nil {
		return err
	}
	for name, dep := range long {
		(*d)[name] = dep.Condition
	}
	return nil
}

type composeHealth struct {
	Test    composeCommand `yaml:"test"`
	Disable bool           `yaml:"disable"`
}

// composeCommand is a command as a list, or as a string run by the shell.
type composeCommand []string

func (c *composeCommand) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*c = composeCommand{"CMD-SHELL", n.Value}
		return nil
	}
	return n.Decode((*[]string)(c))
}
