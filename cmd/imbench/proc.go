package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat times: 100 on every
// Linux build that matters here (reading it needs sysconf, hence cgo).
const clockTicks = 100

// cpuTime is the user plus system CPU time pid has used ("self" for this
// process).
func cpuTime(pid string) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, fmt.Errorf("cpu time: %w", err)
	}
	// The command name, in parentheses, may hold spaces: fields count from
	// after its closing parenthesis, where field 3 (state) starts.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("cpu time: unexpected /proc/%s/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("cpu time: unexpected /proc/%s/stat", pid)
	}
	var ticks int64
	for _, s := range f[11:13] { // utime (field 14) and stime (field 15)
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("cpu time: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// rssKiB is the resident set size of pid, from VmRSS in /proc/<pid>/status.
func rssKiB(pid string) (int64, error) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, fmt.Errorf("rss: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, ok := strings.CutSuffix(strings.TrimSpace(v), " kB")
			if !ok {
				break
			}
			return strconv.ParseInt(strings.TrimSpace(kb), 10, 64)
		}
	}
	return 0, fmt.Errorf("rss: no VmRSS in /proc/%s/status", pid)
}

// cpuMeter measures the CPU a process uses over a window; a process it
// cannot read is reported as unknown rather than failing the run.
type cpuMeter struct {
	pid   string
	cpu   time.Duration
	start time.Time
	ok    bool
}

func startCPU(pid string) cpuMeter {
	cpu, err := cpuTime(pid)
	return cpuMeter{pid: pid, cpu: cpu, start: time.Now(), ok: err == nil && pid != ""}
}

// cpuUse is the CPU a process used per second of wall time; known is false
// when it could not be read.
type cpuUse struct {
	cores float64
	total time.Duration
	known bool
}

// perEvent tells the CPU used in all and per event, for a detail line
// ("" when unknown): on a shared machine it varies less than wall time.
func (u cpuUse) perEvent(events uint64) string {
	if !u.known || events == 0 {
		return ""
	}
	return fmt.Sprintf(" using %.2f s of CPU (%.1f µs/event)", u.total.Seconds(),
		float64(u.total.Microseconds())/float64(events))
}

// use is the CPU used since start.
func (m cpuMeter) use() cpuUse {
	if !m.ok {
		return cpuUse{}
	}
	cpu, err := cpuTime(m.pid)
	if err != nil {
		return cpuUse{}
	}
	used := cpu - m.cpu
	return cpuUse{cores: used.Seconds() / time.Since(m.start).Seconds(), total: used, known: true}
}
