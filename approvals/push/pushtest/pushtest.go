// Package pushtest is a push service stand-in for tests: an HTTPS server
// on loopback that takes Web Push requests as FCM or Mozilla's autopush
// would (RFC 8030), a subscription whose keys the test made, and the
// checks of what the node sent by code others wrote (the npm packages
// jose and http_ece, Python's http-ece), so that "the node's push is
// standard" is not the node's own word.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mailnode/internal/npmtest"
)

// Host is the name push endpoints of the stand-in carry: the name its
// certificate (httptest's) holds. The node's development override maps
// it to the stand-in's loopback address (push.Config.DevAddrs, the
// node's --dev-agent).
const Host = "example.com"

// Request is one push request the stand-in took.
type Request struct {
	Path    string
	Header  http.Header
	Body    []byte
	At      time.Time
	Answer  int
	Attempt int // how many requests this path had before this one
}

// StandIn is the push service stand-in.
type StandIn struct {
	*httptest.Server

	mu       sync.Mutex // guards the fields below
	requests []Request
	answers  map[string][]Answer // per path, popped in order; empty: 201
	delay    time.Duration
	got      chan Request
}

// SetDelay makes the stand-in answer each request d after it came: a slow
// push service.
func (s *StandIn) SetDelay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Answer is a scripted answer: a status and a Retry-After ("" none).
type Answer struct {
	Status     int
	RetryAfter string
}

// Start starts a stand-in; it is closed at the end of the test.
func Start(t testing.TB) *StandIn {
	s := &StandIn{answers: map[string][]Answer{}, got: make(chan Request, 4096)}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *StandIn) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 8192))
	s.mu.Lock()
	a := Answer{Status: http.StatusCreated}
	if q := s.answers[r.URL.Path]; len(q) > 0 {
		a, s.answers[r.URL.Path] = q[0], q[1:]
	}
	n := 0
	for _, q := range s.requests {
		if q.Path == r.URL.Path {
			n++
		}
	}
	req := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, At: time.Now(), Answer: a.Status, Attempt: n}
	s.requests = append(s.requests, req)
	delay := s.delay
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
		}
	}
	if a.RetryAfter != "" {
		w.Header().Set("Retry-After", a.RetryAfter)
	}
	if a.Status == http.StatusCreated {
		w.Header().Set("Location", "https://"+Host+"/message/"+rand.Text())
	}
	w.WriteHeader(a.Status)
	select {
	case s.got <- req:
	default:
	}
}

// Script sets the answers to the next requests for path.
func (s *StandIn) Script(path string, answers ...Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answers[path] = append(s.answers[path], answers...)
}

// Next waits for the next request the stand-in takes.
func (s *StandIn) Next(t testing.TB, within time.Duration) Request {
	t.Helper()
	select {
	case r := <-s.got:
		return r
	case <-time.After(within):
		t.Fatalf("the push service stand-in got no request within %v", within)
		return Request{}
	}
}

// Requests returns every request taken so far.
func (s *StandIn) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// DevAddrs maps Host to the stand-in, for push.Config.DevAddrs.
func (s *StandIn) DevAddrs() map[string]string {
	return map[string]string{Host: s.Listener.Addr().String()}
}

// CA is the stand-in's certificate, for push.Config.DevRootCAs.
func (s *StandIn) CA() *x509.Certificate { return s.Certificate() }

// Subscriber is the browser's side of a subscription: the key pair and
// authentication secret the test made.
type Subscriber struct {
	Key      *ecdh.PrivateKey
	Auth     []byte
	Endpoint string
}

// NewSubscriber makes a subscription at the stand-in's path.
func NewSubscriber(t testing.TB, path string) *Subscriber {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	return &Subscriber{Key: k, Auth: auth, Endpoint: "https://" + Host + path}
}

// JSON is the subscription as PushSubscription.toJSON() gives it.
func (s *Subscriber) JSON() []byte {
	b, _ := json.Marshal(map[string]any{"endpoint": s.Endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": b64(s.Key.PublicKey().Bytes()), "auth": b64(s.Auth)}})
	return b
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// Decrypt opens an aes128gcm body of one record (RFC 8188, RFC 8291): the
// test's own reading, beside those of the packages others wrote.
func (s *Subscriber) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("body shorter than the header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || rs < 18 {
		return nil, errors.New("bad header")
	}
	as, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, fmt.Errorf("keyid is not the sender's P-256 key: %w", err)
	}
	record := body[21+idlen:]
	if len(record) > int(rs) {
		return nil, errors.New("more than one record")
	}
	secret, err := s.Key.ECDH(as)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), s.Key.PublicKey().Bytes()...), as.Bytes()...)
	ikm, _ := hkdf.Key(sha256.New, secret, s.Auth, string(info), 32)
	cek, _ := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	nonce, _ := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, record, nil)
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(plain, 2)
	if i < 0 || len(bytes.Trim(plain[i+1:], "\x00")) != 0 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:i], nil
}

// Checked is what the checks of others' code read from one request.
type Checked struct {
	// Header and Claims are the VAPID JWT's, as jose verified them (nil
	// when Node.js is not installed and not required).
	Header, Claims map[string]any
	K              string // the key the Authorization header named
	// Text is the decrypted message, the same by every reader that ran.
	Text string
	// Readers names the implementations that decrypted it.
	Readers []string
}

// Check reads req with every implementation available: the test's own
// Decrypt always; jose and http_ece on Node.js (required when
// MAILNODE_TEST_PUSH=1 or CI=true, as make test sets); Python's http-ece
// (required when MAILNODE_TEST_PUSH_PYTHON=1). Every reader must find the
// same text; audience is the JWT's expected aud.
func (s *Subscriber) Check(t testing.TB, req Request, audience string) Checked {
	t.Helper()
	own, err := s.Decrypt(req.Body)
	if err != nil {
		t.Fatalf("Decrypt(push body) = %v", err)
	}
	c := Checked{Text: string(own), Readers: []string{"pushtest"}}
	in, _ := json.Marshal(map[string]string{"authorization": req.Header.Get("Authorization"), "audience": audience,
		"body": b64(req.Body), "ua_private": b64(s.Key.Bytes()), "auth": b64(s.Auth)})
	if node, dir := NodeChecks(t); dir != "" {
		cmd := exec.Command(node, filepath.Join(dir, "check.mjs"))
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("jose/http_ece check: %v\n%s", err, stderr(err))
		}
		var v struct {
			Header, Claims map[string]any
			K, Text        string
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("jose/http_ece check printed %q: %v", out, err)
		}
		if v.Text != c.Text {
			t.Fatalf("http_ece decrypted %q, the test's own reading %q", v.Text, c.Text)
		}
		c.Header, c.Claims, c.K = v.Header, v.Claims, v.K
		c.Readers = append(c.Readers, "jose+http_ece (npm)")
	}
	if py := PythonECE(t); py != "" {
		cmd := exec.Command(py, filepath.Join(checksDir(t), "check.py"))
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("http-ece (Python) check: %v\n%s", err, stderr(err))
		}
		if string(out) != c.Text {
			t.Fatalf("Python's http-ece decrypted %q, the test's own reading %q", out, c.Text)
		}
		c.Readers = append(c.Readers, "http-ece (Python)")
	}
	return c
}

func stderr(err error) []byte {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.Stderr
	}
	return nil
}

// checksDir is approvals/push/testdata, found from this file's package
// directory or a test's working directory anywhere in the module.
func checksDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "approvals", "push", "testdata")
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("pushtest: go.mod not found above the test's directory")
		}
		dir = up
	}
}

var checkFiles = []string{"package.json", "package-lock.json", "check.mjs"}

// NodeChecks installs jose and http_ece (pinned by testdata's
// package-lock.json) with npm ci into a directory of the user's cache
// named by the hash of the files, the first time, and returns it with the
// Node.js to run its check.mjs; "", "" when Node.js or npm is missing and
// neither MAILNODE_TEST_PUSH=1 nor CI=true says they must be there.
func NodeChecks(t testing.TB) (node, dir string) {
	t.Helper()
	// http_ece declares Node.js 16 or later.
	node, npm := npmtest.Node(t, 16, "MAILNODE_TEST_PUSH")
	if node == "" {
		t.Logf("the push is not checked with jose and http_ece")
		return "", ""
	}
	return node, npmtest.Install(t, "pushcheck", os.DirFS(checksDir(t)), checkFiles, npm)
}

var (
	pyOnce sync.Once
	pyPath string
	pyErr  error
)

// PythonECE returns a Python that imports http_ece 1.2.1: a venv in the
// user's cache into which pip installed it (with the machine's
// cryptography package), made the first time. "" when that cannot be
// done and MAILNODE_TEST_PUSH_PYTHON=1 does not say it must: pip needs
// the Python package index, which not every machine reaches.
func PythonECE(t testing.TB) string {
	t.Helper()
	pyOnce.Do(func() { pyPath, pyErr = venv() })
	if pyErr != nil {
		if os.Getenv("MAILNODE_TEST_PUSH_PYTHON") == "1" {
			t.Fatalf("Python's http-ece is needed (MAILNODE_TEST_PUSH_PYTHON=1): %v", pyErr)
		}
		t.Logf("Python's http-ece 1.2.1 is not installed, the push is not decrypted with it: %v", pyErr)
		return ""
	}
	return pyPath
}

func venv() (string, error) {
	python, err := exec.LookPath("python3")
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "mailnode-tests", "http-ece-1.2.1")
	py := filepath.Join(dir, "bin", "python")
	has := func() bool {
		out, err := exec.Command(py, "-c", "import importlib.metadata as m; print(m.version('http_ece'))").Output()
		return err == nil && strings.TrimSpace(string(out)) == "1.2.1"
	}
	if has() {
		return py, nil
	}
	if out, err := exec.Command(python, "-m", "venv", "--system-site-packages", dir).CombinedOutput(); err != nil {
		return "", fmt.Errorf("python3 -m venv: %v: %s", err, out)
	}
	cmd := exec.Command(py, "-m", "pip", "install", "--quiet", "--retries", "0", "--timeout", "15", "http-ece==1.2.1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("pip install http-ece==1.2.1: %v: %s", err, lastLine(out))
	}
	if !has() {
		return "", errors.New("http-ece 1.2.1 not importable after pip install")
	}
	return py, nil
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}
