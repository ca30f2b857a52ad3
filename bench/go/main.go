// The Go side of bench/go.bench.ts: the tool call as Omnia's runtime makes it
// with net/http (POST with the identity headers, the body read through a
// 10 MiB cap and parsed as JSON), and the backend both clients call.
//
//	go-bench backend               serves POST on 127.0.0.1, prints its port
//	go-bench client <spec.json>    one round of calls, prints {"calls","ms","cpuMs"}
//
// The spec holds url, headers, body, calls and inFlight. Built by the bench with
// `go build` when a Go toolchain is installed; nothing else builds or runs it.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const response = `{"city":"Paris","temperature":21.5,"unit":"C","forecast":[{"day":1,"high":23},{"day":2,"high":19}]}`

type spec struct {
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Body     string            `json:"body"`
	Calls    int               `json:"calls"`
	InFlight int               `json:"inFlight"`
	Rounds   int               `json:"rounds"`
	// Warmup calls before the first round (default: 20 per call in flight).
	Warmup int `json:"warmup"`
	// Runtime: a new &http.Client{} per call on http.DefaultTransport, as Omnia's runtime makes its
	// tool calls (internal/runtime/tools/omnia_executor_http.go), which keeps at most 2 idle
	// connections per host; otherwise one client with an idle connection for every call in flight.
	Runtime bool `json:"runtime"`
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go-bench backend | client <spec.json>")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "backend":
		backend()
	case "client":
		client(os.Args[2])
	default:
		os.Exit(2)
	}
}

func backend() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr().(*net.TCPAddr).Port)
	body := []byte(response)
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.Write(body)
	}))
}

func cpuMs() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// One client for the process: keep-alive, enough idle connections per host for every
// call in flight (or, with "runtime", a client per call on http.DefaultTransport).
func client(path string) {
	raw, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var s spec
	if err := json.Unmarshal(raw, &s); err != nil {
		panic(err)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = s.InFlight
	pooled := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	call := func() {
		c := pooled
		if s.Runtime {
			c = &http.Client{}
		}
		req, err := http.NewRequest("POST", s.URL, strings.NewReader(s.Body))
		if err != nil {
			panic(err)
		}
		for k, v := range s.Headers {
			req.Header.Set(k, v)
		}
		res, err := c.Do(req)
		if err != nil {
			panic(err)
		}
		data, err := io.ReadAll(io.LimitReader(res.Body, 10<<20+1))
		res.Body.Close()
		if err != nil {
			panic(err)
		}
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil || res.StatusCode != 200 || v["city"] != "Paris" {
			panic(fmt.Sprintf("bad response %d %q", res.StatusCode, data))
		}
	}
	round := func(n int) {
		var next int64 = -1
		var wg sync.WaitGroup
		for l := 0; l < s.InFlight; l++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for atomic.AddInt64(&next, 1) < int64(n) {
					call()
				}
			}()
		}
		wg.Wait()
	}
	warmup := s.Warmup
	if warmup == 0 {
		warmup = s.InFlight * 20
	}
	round(warmup) // warm-up: connections open
	// One line per round; the bench reads them as the Node rounds run in between.
	in := make([]byte, 1)
	for r := 0; r < s.Rounds; r++ {
		if _, err := os.Stdin.Read(in); err != nil {
			return
		}
		c0 := cpuMs()
		t0 := time.Now()
		round(s.Calls)
		out, _ := json.Marshal(map[string]float64{"calls": float64(s.Calls), "ms": float64(time.Since(t0).Microseconds()) / 1000, "cpuMs": cpuMs() - c0})
		fmt.Println(string(out))
	}
}
