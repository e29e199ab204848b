// Package npmtest installs, for tests, pinned tools others wrote that run
// on Node.js: the MCP clients and Inspector of gateway/mcpclients,
// oidc-provider of mail/oidctest, jose and http_ece of
// approvals/push/pushtest. Running code others wrote against the node is
// what makes "the node speaks the standard" more than the node's own word.
//
// Each tool is pinned by its package-lock.json and installed with npm ci
// (from the npm registry) the first time, into a directory of the user's
// cache named by the hash of its files, so a changed pin installs afresh
// and an unchanged one costs a stat. Where the machine's Node.js is older
// than a tool needs (Debian's may be), Node.js NodeVersion is installed
// from the npm registry's node package into the same cache.
//
// A missing Node.js or npm leaves a tool's part out only where nothing
// says it must be there: the environment variable a caller names
// (make test sets MAILNODE_TEST_OIDC=1, MAILNODE_TEST_PUSH=1 …) or
// CI=true makes it a failure.
package npmtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// NodeVersion is the Node.js installed from the npm registry's node
// package where the machine's is older than a test needs.
const NodeVersion = "22.23.3"

// Node returns a Node.js whose major version is minMajor or later, and
// npm: the machine's, or NodeVersion installed with its npm where the
// machine's Node.js is older. When node or npm is not on PATH it returns
// "", "" for the caller to skip or leave its part out, after failing the
// test if the environment variable require names is "1" or CI is "true".
func Node(t testing.TB, minMajor int, require string) (node, npm string) {
	t.Helper()
	node, errNode := exec.LookPath("node")
	npm, errNPM := exec.LookPath("npm")
	if errNode != nil || errNPM != nil {
		if require != "" && os.Getenv(require) == "1" {
			t.Fatalf("Node.js and npm are needed (%s=1): %v %v", require, errNode, errNPM)
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("Node.js and npm are needed (CI=true): %v %v", errNode, errNPM)
		}
		t.Logf("Node.js or npm is not installed, the tools run on it are left out: %v %v", errNode, errNPM)
		return "", ""
	}
	m := major(t, node)
	if m >= minMajor {
		return node, npm
	}
	t.Logf("Node.js %d is older than the %d needed here; using Node.js %s from the npm registry", m, minMajor, NodeVersion)
	node = installNode(t, npm)
	if m := major(t, node); m < minMajor {
		t.Fatalf("node@%s from npm is Node.js %d, want %d or later", NodeVersion, m, minMajor)
	}
	return node, npm
}

// major is the major version of the Node.js at path.
func major(t testing.TB, node string) int {
	t.Helper()
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Fatalf("%s --version: %v", node, err)
	}
	m, err := ParseMajor(string(out))
	if err != nil {
		t.Fatalf("%s --version: %v", node, err)
	}
	return m
}

// ParseMajor reads the major version from what node --version prints
// ("v20.20.2\n").
func ParseMajor(version string) (int, error) {
	v := strings.TrimSpace(version)
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return 0, fmt.Errorf("version %q does not start with v", v)
	}
	m, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(m)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("version %q: no major number", v)
	}
	return n, nil
}

// cacheDir is where the installs are kept.
func cacheDir() string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "mailnode-tests")
}

// installNode installs Node.js NodeVersion in the user's cache (once) and
// returns its binary.
func installNode(t testing.TB, npm string) string {
	t.Helper()
	dir := filepath.Join(cacheDir(), "node-"+NodeVersion)
	bin := filepath.Join(dir, "node_modules", "node", "bin", "node")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--no-save", "node@"+NodeVersion)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm install node@%s: %v\n%s", NodeVersion, err, out)
	}
	return bin
}

// Install puts files of src (package.json and package-lock.json, and any
// script that imports from node_modules) in a directory of the user's
// cache named name-<hash of the files>, installs what the lock file pins
// there with npm ci the first time, and returns the directory. A run
// beside this one installing the same files is harmless: each installs
// into a directory of its own and renames it into place.
func Install(t testing.TB, name string, src fs.FS, files []string, npm string) string {
	t.Helper()
	contents := make([][]byte, len(files))
	for i, f := range files {
		b, err := fs.ReadFile(src, f)
		if err != nil {
			t.Fatalf("npmtest: %s: %v", name, err)
		}
		contents[i] = b
	}
	dir := filepath.Join(cacheDir(), dirName(name, files, contents))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for i, f := range files {
		if err := os.WriteFile(filepath.Join(tmp, f), contents[i], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// engine-strict off: a tool may declare a newer Node.js than the one
	// npm runs on; the test runs it with the one Node returned.
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--engine-strict=false")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci (%s): %v\n%s", name, err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); serr != nil { // not installed by a run beside this one
			t.Fatalf("npmtest: %s: %v", name, err)
		}
	}
	return dir
}

// dirName is the name of the cache directory holding name's install of
// files with these contents: a change to any of them (or to which files
// there are) names another.
func dirName(name string, files []string, contents [][]byte) string {
	h := sha256.New()
	for i, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(contents[i]))
		h.Write(contents[i])
	}
	return name + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}
