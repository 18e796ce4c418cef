// Package crlserver is the in-cluster CRL distribution point: a plain HTTP
// server that serves the CRLs held in ConfigMaps, read through the
// Kubernetes API, and counts every fetch per path so a spec can prove that
// the router really downloaded from the distribution point. StatusPath is
// a distribution point that fails on demand, with the error status a spec
// chooses.
package crlserver

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// Paths the server answers itself; a ConfigMap key of the same name is
// shadowed by them.
const (
	HealthzPath = "/healthz"
	FetchesPath = "/fetches"
	// StatusPrefix followed by an error status (400 to 599) answers
	// that status, whatever the ConfigMaps hold: see StatusPath.
	StatusPrefix = "/status/"
)

// StatusPath is the path that always answers code (400 to 599), with the
// status text as its body: a distribution point that fails.
func StatusPath(code int) string { return fmt.Sprintf("%s%d", StatusPrefix, code) }

// errorStatus is the status a StatusPath asks for; false for any other
// path, and for a status that is not an error.
func errorStatus(path string) (int, bool) {
	rest, ok := strings.CutPrefix(path, StatusPrefix)
	if !ok || len(rest) != 3 {
		return 0, false
	}
	code, err := strconv.Atoi(rest)
	if err != nil || code < 400 || code > 599 {
		return 0, false
	}
	return code, true
}

// GzipSuffix marks a ConfigMap key whose value is gzip-compressed: "big.crl.gz"
// is served, decompressed, at "/big.crl". A ConfigMap holds at most 1 MiB,
// and this is how a CRL of several megabytes fits in one.
const GzipSuffix = ".gz"

// DefaultMaxObjectBytes bounds what one response may carry once
// decompressed.
const DefaultMaxObjectBytes = 16 << 20

// A ConfigMap key: the API server allows nothing else, and anything else in
// a request path (slashes, "..", escapes) can only be a miss.
var keyPattern = regexp.MustCompile(`^[-._a-zA-Z0-9]+$`)

// Server serves the keys of the named ConfigMaps in Namespace as paths.
// Each request reads the ConfigMaps from the API server, so an update is
// served on the very next request, with no cache or kubelet volume sync in
// between.
type Server struct {
	Client     kubernetes.Interface
	Namespace  string
	ConfigMaps []string
	// MaxObjectBytes defaults to DefaultMaxObjectBytes.
	MaxObjectBytes int64
	// Log receives one line per request; nil means log.Default().
	Log *log.Logger

	mu      sync.Mutex
	fetches map[string]int64
}

// Fetches returns how many times each path was served successfully.
func (s *Server) Fetches() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.fetches))
	for k, v := range s.fetches {
		out[k] = v
	}
	return out
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	s.serve(rec, r)
	s.logger().Printf("fetch remote=%s method=%s path=%q status=%d bytes=%d", r.RemoteAddr, r.Method, r.URL.Path, rec.status, rec.bytes)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case HealthzPath:
		_, _ = io.WriteString(w, "ok\n")
		return
	case FetchesPath:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Fetches())
		return
	}
	if code, ok := errorStatus(r.URL.Path); ok && r.URL.RawPath == "" {
		http.Error(w, http.StatusText(code), code)
		return
	}
	key := strings.TrimPrefix(r.URL.Path, "/")
	if r.URL.RawPath != "" || !keyPattern.MatchString(key) || key == "." || key == ".." {
		http.NotFound(w, r)
		return
	}
	body, err := s.lookup(r.Context(), key)
	switch {
	case errors.Is(err, errNotFound):
		http.NotFound(w, r)
		return
	case err != nil:
		s.logger().Printf("error path=%q: %v", r.URL.Path, err)
		http.Error(w, "cannot read the CRL store", http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", contentType(body))
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.Header().Set("Cache-Control", "no-store")
	if r.Method == http.MethodGet {
		_, _ = w.Write(body)
		s.mu.Lock()
		if s.fetches == nil {
			s.fetches = map[string]int64{}
		}
		s.fetches[r.URL.Path]++
		s.mu.Unlock()
	}
}

var errNotFound = errors.New("not found")

// lookup finds key in the ConfigMaps, first ConfigMap first; a plain key
// beats its gzip form.
func (s *Server) lookup(ctx context.Context, key string) ([]byte, error) {
	for _, name := range s.ConfigMaps {
		cm, err := s.Client.CoreV1().ConfigMaps(s.Namespace).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("get configmap %s/%s: %w", s.Namespace, name, err)
		}
		if v, ok := value(cm, key); ok {
			return s.bounded(v)
		}
		if v, ok := value(cm, key+GzipSuffix); ok {
			return s.gunzip(v)
		}
	}
	return nil, errNotFound
}

func value(cm *corev1.ConfigMap, key string) ([]byte, bool) {
	if v, ok := cm.Data[key]; ok {
		return []byte(v), true
	}
	v, ok := cm.BinaryData[key]
	return v, ok
}

func (s *Server) maxBytes() int64 {
	if s.MaxObjectBytes > 0 {
		return s.MaxObjectBytes
	}
	return DefaultMaxObjectBytes
}

func (s *Server) bounded(b []byte) ([]byte, error) {
	if int64(len(b)) > s.maxBytes() {
		return nil, fmt.Errorf("object of %d bytes exceeds the %d-byte limit", len(b), s.maxBytes())
	}
	return b, nil
}

func (s *Server) gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	// Read one byte past the limit to tell "exactly the limit" from "more".
	out, err := io.ReadAll(io.LimitReader(zr, s.maxBytes()+1))
	if err != nil {
		return nil, fmt.Errorf("gunzip: %w", err)
	}
	return s.bounded(out)
}

func contentType(body []byte) string {
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("-----BEGIN")) {
		return "application/x-pem-file"
	}
	return "application/pkix-crl"
}

func (s *Server) logger() *log.Logger {
	if s.Log != nil {
		return s.Log
	}
	return log.Default()
}

// DecodeFetches decodes the body of FetchesPath: path -> successful fetches.
func DecodeFetches(r io.Reader) (map[string]int64, error) {
	var counts map[string]int64
	if err := json.NewDecoder(r).Decode(&counts); err != nil {
		return nil, fmt.Errorf("decode fetch counts: %w", err)
	}
	return counts, nil
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}
