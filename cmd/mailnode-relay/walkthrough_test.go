package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mailnode/app/apptest"
)

// TestREADMEThroughRelay runs the README's walk-through "Through a relay,
// on one machine" as it is written: every command of its shell block, in
// the terminals it names, with `go run` as a reader types it. The only
// change is that /tmp/ becomes a directory of the test's own, so that a
// developer's run of the walk-through is left alone.
//
// The block's comments drive it (see parseWalkthrough): "# terminal N"
// moves to that terminal, where a command waits for the one before it to
// end; "#   text" is output the last command must print, and
// "# terminal N then prints text" output terminal N's last command must
// print. <NAME> in an expected line is read from the output and replaces
// <NAME> in later commands. At the end the commands still running (relay,
// node) are stopped with Ctrl-C and must exit 0.
func TestREADMEThroughRelay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the walk-through's programs")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	steps, err := parseWalkthrough(string(readme), "through-a-relay")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	// The programs see none of the developer's settings: a home of their
	// own, but the Go build cache of this machine.
	var environ []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MAILNODE_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_") {
			environ = append(environ, kv)
		}
	}
	environ = append(environ, "HOME="+home)
	for _, v := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", v).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", v, err)
		}
		environ = append(environ, v+"="+strings.TrimSpace(string(out)))
	}

	w := &walk{t: t, dir: root, env: environ, tmp: tmp + "/", vars: map[string]string{}, terms: map[int]*walkProc{}}
	defer w.stopAll(false)
	for _, s := range steps {
		switch s.kind {
		case stepCommand:
			w.run(s)
		case stepExpect:
			w.expect(s)
		}
	}
	w.stopAll(true)
}

type stepKind int

const (
	stepCommand stepKind = iota
	stepExpect
)

// step is one line of the walk-through: a command to run in a terminal,
// or output a terminal's last command must print.
type step struct {
	kind     stepKind
	terminal int
	text     string
	line     int // in README.md
}

var (
	terminalLine = regexp.MustCompile(`^# terminal (\d+)\b(?: then prints (.+))?`)
	expectLine   = regexp.MustCompile(`^#   +(\S.*)$`)
)

// parseWalkthrough reads the shell block that follows the marker
// <!-- walkthrough: name --> in markdown.
func parseWalkthrough(markdown, name string) ([]step, error) {
	marker := "<!-- walkthrough: " + name + " -->"
	i := strings.Index(markdown, marker)
	if i < 0 {
		return nil, fmt.Errorf("README.md has no %s", marker)
	}
	lineNo := strings.Count(markdown[:i], "\n")
	sc := bufio.NewScanner(strings.NewReader(markdown[i:]))
	var steps []step
	terminal, inBlock, cont := 0, false, ""
	for sc.Scan() {
		line := sc.Text()
		lineNo++
		if !inBlock {
			if strings.HasPrefix(line, "```sh") {
				inBlock = true
			}
			continue
		}
		if strings.HasPrefix(line, "```") {
			if len(steps) == 0 {
				return nil, errors.New("the walk-through block is empty")
			}
			return steps, nil
		}
		if cont != "" || !strings.HasPrefix(strings.TrimSpace(line), "#") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			if before, ok := strings.CutSuffix(line, "\\"); ok {
				cont += before
				continue
			}
			if terminal == 0 {
				return nil, fmt.Errorf("README.md:%d: a command before any \"# terminal N\"", lineNo)
			}
			steps = append(steps, step{kind: stepCommand, terminal: terminal, text: strings.TrimSpace(cont + line), line: lineNo})
			cont = ""
			continue
		}
		if m := terminalLine.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			if m[2] != "" {
				steps = append(steps, step{kind: stepExpect, terminal: n, text: strings.TrimSpace(m[2]), line: lineNo})
				continue
			}
			terminal = n
			continue
		}
		if m := expectLine.FindStringSubmatch(line); m != nil {
			steps = append(steps, step{kind: stepExpect, terminal: terminal, text: m[1], line: lineNo})
		}
	}
	return nil, errors.New("the walk-through block does not end")
}

var placeholder = regexp.MustCompile(`<([A-Z][A-Z0-9_]*)>`)

// expectPattern makes an expected line a pattern: its text literally,
// "..." any text, <NAME> a word to remember.
func expectPattern(text string) (*regexp.Regexp, []string) {
	var names []string
	var b strings.Builder
	rest := text
	for {
		loc := placeholder.FindStringSubmatchIndex(rest)
		if loc == nil {
			break
		}
		b.WriteString(literal(rest[:loc[0]]))
		names = append(names, rest[loc[2]:loc[3]])
		b.WriteString(`(\S+)`)
		rest = rest[loc[1]:]
	}
	b.WriteString(literal(rest))
	return regexp.MustCompile(b.String()), names
}

func literal(s string) string {
	parts := strings.Split(s, "...")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return strings.Join(parts, ".*")
}

// walk runs the steps: one process per command, the last of each terminal
// remembered.
type walk struct {
	t     *testing.T
	dir   string
	env   []string
	tmp   string
	vars  map[string]string
	terms map[int]*walkProc
}

type walkProc struct {
	step step
	cmd  *exec.Cmd
	out  *apptest.Buffer
	done chan error
	// seen is how much of out expectations have consumed: the next
	// expectation reads on from there.
	seen int
}

func (w *walk) run(s step) {
	t := w.t
	t.Helper()
	if prev := w.terms[s.terminal]; prev != nil {
		// A terminal runs one command at a time.
		select {
		case err := <-prev.done:
			prev.done <- err
			if err != nil {
				t.Fatalf("README.md:%d (terminal %d): %s\nfailed: %v\n%s", prev.step.line, s.terminal, prev.step.text, err, prev.out.String())
			}
		case <-time.After(2 * time.Minute):
			t.Fatalf("README.md:%d (terminal %d): %s\nstill runs, but the walk-through types the next command there\n%s", prev.step.line, s.terminal, prev.step.text, prev.out.String())
		}
	}
	text := placeholder.ReplaceAllStringFunc(s.text, func(m string) string {
		v, ok := w.vars[m[1:len(m)-1]]
		if !ok {
			t.Fatalf("README.md:%d: %s is used before any output showed it", s.line, m)
		}
		return v
	})
	text = strings.ReplaceAll(text, "/tmp/", w.tmp)
	t.Logf("terminal %d $ %s", s.terminal, text)
	p := &walkProc{step: s, cmd: exec.Command("bash", "-c", text), out: &apptest.Buffer{}, done: make(chan error, 1)}
	p.cmd.Dir, p.cmd.Env = w.dir, w.env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Ctrl-C reaches go run and its program
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	w.terms[s.terminal] = p
}

func (w *walk) expect(s step) {
	t := w.t
	t.Helper()
	p := w.terms[s.terminal]
	if p == nil {
		t.Fatalf("README.md:%d: output expected of terminal %d, where nothing ran", s.line, s.terminal)
	}
	rx, names := expectPattern(s.text)
	// The first go run of a program builds it: minutes on a cold cache.
	deadline := time.Now().Add(4 * time.Minute)
	for {
		out := p.out.String()
		if loc := rx.FindStringSubmatchIndex(out[p.seen:]); loc != nil {
			for i, name := range names {
				w.vars[name] = out[p.seen+loc[2+2*i] : p.seen+loc[3+2*i]]
			}
			p.seen += loc[1]
			return
		}
		select {
		case err := <-p.done:
			p.done <- err
			if rx.MatchString(p.out.String()[p.seen:]) {
				continue
			}
			t.Fatalf("README.md:%d (terminal %d): %s\nended (%v) without printing %q:\n%s", p.step.line, s.terminal, p.step.text, err, s.text, out)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("README.md:%d (terminal %d): %s\ndid not print %q:\n%s", p.step.line, s.terminal, p.step.text, s.text, out)
		}
	}
}

// interrupt presses Ctrl-C in the terminal whose process group is pgid,
// except that `go run` and the shell are spared: go run exits 1 on an
// interrupt whatever its program did, and the program's own exit status
// is what the walk-through checks (go run passes it on).
func interrupt(pgid int) {
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	sent := false
	for _, f := range procs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		if comm := s[open+1 : end]; comm == "go" || comm == "bash" {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		syscall.Kill(pid, syscall.SIGINT)
		sent = true
	}
	if !sent {
		syscall.Kill(-pgid, syscall.SIGINT)
	}
}

// stopAll presses Ctrl-C in every terminal whose command still runs; with
// check, each must then exit 0 (a requested stop is not a failure).
func (w *walk) stopAll(check bool) {
	t := w.t
	for n, p := range w.terms {
		select {
		case err := <-p.done:
			p.done <- err
			if check && err != nil {
				t.Errorf("README.md:%d (terminal %d): %s\nfailed: %v\n%s", p.step.line, n, p.step.text, err, p.out.String())
			}
			continue
		default:
		}
		interrupt(p.cmd.Process.Pid)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		select {
		case err := <-p.done:
			p.done <- err
			if check && err != nil {
				t.Errorf("README.md:%d (terminal %d): %s\nexited %v on Ctrl-C, want 0:\n%s", p.step.line, n, p.step.text, err, p.out.String())
			}
		case <-ctx.Done():
			syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
			if check {
				t.Errorf("README.md:%d (terminal %d): %s\ndid not stop on Ctrl-C:\n%s", p.step.line, n, p.step.text, p.out.String())
			}
		}
		cancel()
	}
}

func TestParseWalkthrough(t *testing.T) {
	md := "intro\n<!-- walkthrough: w -->\n\n```sh\n# terminal 1: the server\nserve --flag a \\\n    --more b\n#   Listening on <ADDR>.\n" +
		"# a remark\n# terminal 2\ncall <ADDR>\n# terminal 1 then prints done ... ok\n```\n"
	steps, err := parseWalkthrough(md, "w")
	if err != nil {
		t.Fatal(err)
	}
	want := []step{
		{stepCommand, 1, "serve --flag a     --more b", 7},
		{stepExpect, 1, "Listening on <ADDR>.", 8},
		{stepCommand, 2, "call <ADDR>", 11},
		{stepExpect, 1, "done ... ok", 12},
	}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Fatalf("steps\n%v\nwant\n%v", steps, want)
	}
	for _, bad := range []string{"no marker", "<!-- walkthrough: w -->\n```sh\n```\n", "<!-- walkthrough: w -->\n```sh\nrun\n```\n",
		"<!-- walkthrough: w -->\n```sh\n# terminal 1\nrun\n"} {
		if _, err := parseWalkthrough(bad, "w"); err == nil {
			t.Errorf("parseWalkthrough(%q) = nil error", bad)
		}
	}
}

func TestExpectPattern(t *testing.T) {
	tests := []struct {
		text, out string
		match     bool
		vars      []string
	}{
		{"Agents reach <ADDR> at <URL>.", "Relay x: connected. Agents reach a@b.example at https://n.relay.test/mcp.\n", true, []string{"a@b.example", "https://n.relay.test/mcp"}},
		{"Match code: <CODE>", "Match code: K7P-4QX\n", true, []string{"K7P-4QX"}},
		{"{\"answer\": ...}", "{\"answer\": \"x\", \"sources\": 1}", true, nil},
		{"a.b", "axb", false, nil},
	}
	for _, tt := range tests {
		rx, names := expectPattern(tt.text)
		m := rx.FindStringSubmatch(tt.out)
		if (m != nil) != tt.match {
			t.Errorf("%q on %q: match %v, want %v", tt.text, tt.out, m != nil, tt.match)
			continue
		}
		if m != nil && fmt.Sprint(m[1:]) != fmt.Sprint(tt.vars) || len(names) != len(tt.vars) {
			t.Errorf("%q on %q: %q (names %q), want %q", tt.text, tt.out, m, names, tt.vars)
		}
	}
}
