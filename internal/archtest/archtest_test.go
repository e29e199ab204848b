package archtest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the module's path, the prefix of every package of ours.
const module = "mailnode"

// testOnly matches the packages that exist for tests (apptest, imaptest,
// acmetest, …: the last element ends in "test") and the libraries only
// tests may use: Pebble, the ACME test CA; chromedp, which drives the
// browser tests' Chromium; goleak.
var testOnly = []string{module + "/...test", "github.com/letsencrypt/...", "github.com/chromedp/...", "go.uber.org/goleak/..."}

// The node's areas, as docs/architecture.md names them.
const (
	mail      = module + "/mail/..."
	extract   = module + "/extract/..."
	approvals = module + "/approvals/..."
	gateway   = module + "/gateway/..."
	app       = module + "/app/..."
	agent     = module + "/agent/..."
	relay     = module + "/relay/..."
	fyne      = "fyne.io/..."
	goIMAP    = "github.com/emersion/go-imap/..."
)

// rule is one dependency rule: the packages matching from (less those
// matching except) must not import, or with direct false must not link
// at all, a package matching deny unless it also matches allow. Patterns
// read as the go command reads them: "..." matches any string, and
// "x/..." matches x itself too.
type rule struct {
	id   string // its subtest's name: go test -run 'TestDependencyRules/relay$'
	name string // the rule, as docs/architecture.md says it
	why  string // why it holds

	from, except []string
	// tests: the rule holds for test-only packages among from too. Most
	// rules are about what programs link; test-only packages have a rule
	// of their own (nothing else imports them).
	tests bool
	// headless: the rule holds only for the build with -tags headless.
	headless bool

	deny, allow []string
	// direct: only the packages' own imports count, not what those
	// import in turn.
	direct bool

	// check, when set, replaces the import check: it returns the
	// rule's violations among the packages the rule holds for.
	check func(g graph, pkgs []string) []string
}

// rules are the module's dependency rules; docs/architecture.md
// ("Dependency rules") lists them in this order.
var rules = []rule{
	// Data flows one way: mail -> store -> extract -> tools -> gateway,
	// and app above them all.
	{
		id:   "mail",
		name: "mail/ links nothing of extract, approvals, gateway, app, the agent SDK or the relay",
		why:  "mail is read and stored before anything reasons about it; it knows nothing of agents, screens or how agents reach the node",
		from: []string{mail},
		deny: []string{extract, approvals, gateway, app, agent, relay},
	},
	{
		id:    "store",
		name:  "mail/store links of mail/ only mail/mime, and no IMAP, SMTP or SASL client",
		why:   "the store holds mail; fetching (imapsync) and sending (smtpsend, drafts) write into it or read from it, never the reverse",
		from:  []string{module + "/mail/store"},
		deny:  []string{mail, goIMAP, "github.com/emersion/go-smtp/...", "github.com/emersion/go-sasl/..."},
		allow: []string{module + "/mail/store", module + "/mail/mime"},
	},
	{
		id:   "extract",
		name: "extract/ links of mail/ only the store and its parsers (store, mime, msgauth, trust, invisible), and nothing of approvals, gateway, app, the agent SDK or the relay",
		why:  "extraction is functions from a stored message to facts; it reads through interfaces it declares and never talks to a mailbox, an agent or a screen",
		from: []string{extract},
		deny: []string{mail, approvals, gateway, app, agent, relay, goIMAP},
		allow: []string{module + "/mail/store", module + "/mail/mime", module + "/mail/msgauth",
			module + "/mail/trust", module + "/mail/invisible"},
	},
	{
		id:    "approvals",
		name:  "approvals/ links of mail/ only mail/invisible, and nothing of extract, gateway, app, the agent SDK or the relay",
		why:   "approvals decides who may call what; it reads no mail, and the gateway asks it, not the other way round",
		from:  []string{approvals},
		deny:  []string{mail, extract, gateway, app, agent, relay},
		allow: []string{module + "/mail/invisible"},
	},
	{
		id:    "tools",
		name:  "gateway/tools links of gateway/ only gateway/redact, of mail/ only the parsers extract uses, and nothing of app",
		why:   "tools are plain functions the gateway calls after authorising a call; they reach the store, drafts and sending through interfaces they declare (Source, Composer), which app fills",
		from:  []string{module + "/gateway/tools"},
		deny:  []string{gateway, mail, app},
		allow: []string{module + "/gateway/tools", module + "/gateway/redact", module + "/mail/mime", module + "/mail/msgauth", module + "/mail/invisible"},
	},
	{
		id:    "gateway",
		name:  "gateway/ links of mail/ only the parsers extract uses, and nothing of app",
		why:   "the gateway is the agents' only door: TLS, signatures, grants, then tools; it never opens the store or a mailbox itself",
		from:  []string{gateway},
		deny:  []string{mail, app},
		allow: []string{module + "/mail/mime", module + "/mail/msgauth", module + "/mail/invisible"},
	},
	{
		id:    "oauth",
		name:  "gateway/oauth links no tools, no gateway server, nothing of extract and of mail/ only mail/invisible",
		why:   "the OAuth front door decides who may call (through approvals, like a signed agent's first contact); the gateway runs the tools after it, so the door never reads mail",
		from:  []string{module + "/gateway/oauth"},
		deny:  []string{module + "/gateway", module + "/gateway/tools", extract, mail},
		allow: []string{module + "/mail/invisible"},
	},

	// Screens.
	{
		id:     "ui-imports",
		name:   "app/ui imports nothing of mail/, extract/, gateway/ or relay/",
		why:    "the desktop app calls app's methods and reads app's view types, the same ones the command line uses",
		from:   []string{module + "/app/ui/..."},
		deny:   []string{mail, extract, gateway, relay},
		direct: true,
	},
	{
		id:     "cmd-imports",
		name:   "cmd/mailnode imports none of mail/store, mail/imapsync, mail/drafts, mail/smtpsend, mail/credential",
		why:    "the command line reaches mail through app's methods and view types, as the desktop app does",
		from:   []string{module + "/cmd/mailnode"},
		deny:   []string{module + "/mail/store", module + "/mail/imapsync", module + "/mail/drafts", module + "/mail/smtpsend", module + "/mail/credential"},
		direct: true,
	},
	{
		id:     "fyne",
		name:   "only app/ui and cmd/mailnode link fyne.io",
		why:    "nothing below the desktop app knows a screen exists; servers, the relay and CI build without cgo",
		from:   []string{module + "/..."},
		except: []string{module + "/app/ui/...", module + "/cmd/mailnode"},
		deny:   []string{fyne},
	},
	{
		id:       "headless",
		name:     "cmd/mailnode built with -tags headless links no fyne.io",
		why:      "serve, sync and demo run the same app.Node headless on servers and in CI, without cgo or a display",
		from:     []string{module + "/cmd/mailnode"},
		headless: true,
		deny:     []string{fyne},
	},

	// Wire packages.
	{
		id:   "wire",
		name: "the wire packages (relay, agent/agentproto, approvals/phoneapi, approvals/pairing, app/config, relay/devnet) link nothing of the module",
		why:  "two programs exchange these types; each side links them without the other",
		from: []string{module + "/relay", module + "/agent/agentproto", module + "/approvals/phoneapi",
			module + "/approvals/pairing", module + "/app/config", module + "/relay/devnet"},
		deny: []string{module + "/..."},
	},
	{
		id:    "localapi",
		name:  "app/localapi and its client and server link of the module only approvals (its types and sentinel errors) and what approvals links",
		why:   "the local API is the contract between the node and the command line, two processes of one program; it speaks approvals' types, and never the store, the gateway or app",
		from:  []string{module + "/app/localapi/..."},
		deny:  []string{module + "/..."},
		allow: []string{module + "/app/localapi/...", approvals, module + "/mail/invisible"},
	},
	{
		id:    "phone",
		name:  "the reference phone (cmd/mailnode-phone, gateway/phone/phoneclient) links of the module only approvals/pairing, approvals/phoneapi and relay/devnet",
		why:   "a phone holds no mail; it reaches the node through the phone wire packages alone, as a third party's phone app would",
		from:  []string{module + "/cmd/mailnode-phone", module + "/gateway/phone/phoneclient"},
		deny:  []string{module + "/..."},
		allow: []string{module + "/approvals/pairing", module + "/approvals/phoneapi", module + "/relay/devnet", module + "/gateway/phone/phoneclient"},
	},

	// The agent SDK.
	{
		id:   "agent",
		name: "the agent SDK (agent/, cmd/mailnode-agent) links nothing of app, mail, extract, gateway, approvals, nor fyne.io or SQLite",
		why:  "an agent's author builds on the SDK; it must not drag in the node or the desktop UI",
		from: []string{agent, module + "/cmd/mailnode-agent"},
		deny: []string{app, mail, extract, gateway, approvals, fyne, "modernc.org/sqlite/..."},
	},

	// The relay.
	{
		id:    "relay",
		name:  "relay/ and cmd/mailnode-relay link nothing of app, mail, extract, gateway, approvals, the agent SDK, fyne.io or go-imap",
		why:   "the relay runs on a server that holds no mail; its binary must not contain the code that reads mail, the node's gateway or approvals, the node's core or the desktop UI",
		from:  []string{relay, module + "/cmd/mailnode-relay"},
		tests: true,
		deny:  []string{app, mail, extract, gateway, approvals, agent, fyne, goIMAP},
	},
	{
		id:     "node-relay",
		name:   "the node imports of relay/ only relay (wire types), relayclient (the tunnel), connlimit (listener limits) and devnet (development overrides)",
		why:    "the relay's server and its store are the relay's own; the node is one of its clients",
		from:   []string{app, mail, extract, gateway, approvals, module + "/cmd/mailnode"},
		except: []string{module + "/app/demo"},
		deny:   []string{relay},
		allow: []string{module + "/relay", module + "/relay/relayclient",
			module + "/relay/connlimit", module + "/relay/devnet"},
		direct: true,
	},
	{
		id:   "demo-relay",
		name: "app/demo imports of relay/ only what the node does, and relaylocal and relayserver",
		why:  "the demo runs a relay of its own in the process, so its node reaches agents through a relay as a real one does",
		from: []string{module + "/app/demo"},
		deny: []string{relay},
		allow: []string{module + "/relay", module + "/relay/relayclient",
			module + "/relay/connlimit", module + "/relay/devnet", module + "/relay/relaylocal", module + "/relay/relayserver"},
		direct: true,
	},

	// The demo.
	{
		id:   "demo-only",
		name: "no package but app/demo, the injection evaluation (app/injectioneval) and the commands (cmd/...) links the demo's packages (mail/demobox, app/demo)",
		why: "the demo runs its sample mailbox's servers beside the node and hands it an ordinary configuration, as a user's settings would; " +
			"a production component that linked them could branch on a demo again, and the node the user runs would carry servers that only show it off. " +
			"The injection evaluation measures over the sample mailbox, and the commands (mailnode demo, serve --demo, the desktop app's demo) start it",
		from:   []string{module + "/..."},
		except: []string{module + "/app/demo", module + "/app/injectioneval", module + "/cmd/..."},
		deny:   []string{module + "/mail/demobox", module + "/app/demo"},
	},

	// Names and tests.
	{
		id:    "names",
		name:  "no package is named util, utils, common, misc, helper(s) or models",
		why:   "a package is named for what it is (store, imapsync, relayserver); a grab-bag name hides where a thing belongs",
		from:  []string{module + "/..."},
		tests: true,
		check: badNames,
	},
	{
		id:   "test-only",
		name: "no program or library package links a test-only package (…test) or a test-only library (Pebble, chromedp, goleak)",
		why:  "test doubles and test CAs must never ship: a program linking Pebble or a fake would trust what a test trusts",
		from: []string{module + "/..."},
		deny: testOnly,
	},
}

// TestDependencyRules checks every rule in every build the project
// ships: the desktop build and the headless one, on Linux, macOS and
// Windows (platform files choose their imports).
func TestDependencyRules(t *testing.T) {
	var graphs []struct {
		b build
		g graph
	}
	for _, b := range builds {
		g, err := load(b)
		if err != nil {
			t.Fatalf("load %s: %v", b, err)
		}
		graphs = append(graphs, struct {
			b build
			g graph
		}{b, g})
	}
	for _, r := range rules {
		t.Run(r.id, func(t *testing.T) {
			var order []string
			where := map[string][]string{}
			held := false
			for _, bg := range graphs {
				if r.headless && bg.b.tags != "headless" {
					continue
				}
				pkgs := r.packages(bg.g)
				held = held || len(pkgs) > 0
				var bad []string
				if r.check != nil {
					bad = r.check(bg.g, pkgs)
				} else {
					bad = r.violations(bg.g, pkgs)
				}
				for _, v := range bad {
					if where[v] == nil {
						order = append(order, v)
					}
					where[v] = append(where[v], bg.b.String())
				}
			}
			if !held {
				t.Errorf("no package is left that the rule holds for (%s): update the rule and docs/architecture.md", strings.Join(r.from, ", "))
			}
			for _, v := range order {
				t.Errorf("%s\n\tbroken by %s (builds: %s)\n\twhy the rule holds: %s", r.name, v, strings.Join(where[v], ", "), r.why)
			}
		})
	}
}

// packages are the packages of g the rule holds for, sorted.
func (r rule) packages(g graph) []string {
	var out []string
	for p := range g {
		if r.holds(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

func (r rule) holds(p string) bool {
	return matchAny(r.from, p) && !matchAny(r.except, p) && (r.tests || !matchAny(testOnly, p))
}

func (r rule) denied(p string) bool { return matchAny(r.deny, p) && !matchAny(r.allow, p) }

// violations returns, for each package the rule holds for, every denied
// package it imports (direct) or links, as the shortest import chain
// that reaches it. A chain stops at the first denied package, and does
// not run through another package the rule holds for: that one's own
// check names it.
func (r rule) violations(g graph, pkgs []string) []string {
	var out []string
	for _, from := range pkgs {
		if r.direct {
			for _, imp := range g[from].Imports {
				if r.denied(imp) {
					out = append(out, from+" -> "+imp)
				}
			}
			continue
		}
		prev := map[string]string{from: ""}
		queue := []string{from}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			pk := g[p]
			if pk == nil {
				continue
			}
			for _, imp := range pk.Imports {
				if _, seen := prev[imp]; seen {
					continue
				}
				prev[imp] = p
				switch {
				case r.denied(imp):
					out = append(out, chain(prev, imp))
				case !r.holds(imp):
					queue = append(queue, imp)
				}
			}
		}
	}
	return out
}

// chain is the import chain that reached p, from its start.
func chain(prev map[string]string, p string) string {
	var c []string
	for ; p != ""; p = prev[p] {
		c = append(c, p)
	}
	slices.Reverse(c)
	return strings.Join(c, " -> ")
}

// badNames is the names rule's check: a package's name or the last
// element of its path is a grab-bag name.
func badNames(g graph, pkgs []string) []string {
	bad := []string{"util", "utils", "common", "misc", "helper", "helpers", "models"}
	var out []string
	for _, p := range pkgs {
		last := p[strings.LastIndex(p, "/")+1:]
		if slices.Contains(bad, g[p].Name) || slices.Contains(bad, last) {
			out = append(out, fmt.Sprintf("%s (package %s)", p, g[p].Name))
		}
	}
	return out
}

// build is one way the module is built; the rules hold in each.
type build struct {
	goos string
	tags string // -tags; "" is the desktop build
}

func (b build) String() string {
	if b.tags == "" {
		return b.goos
	}
	return b.goos + "/" + b.tags
}

var builds = []build{
	{"linux", ""}, {"linux", "headless"},
	{"darwin", ""}, {"darwin", "headless"},
	{"windows", ""}, {"windows", "headless"},
}

// pkg is what go list says of one package.
type pkg struct {
	ImportPath string
	Name       string
	Imports    []string
	Error      *struct{ Err string }
}

// graph is a build's packages, the module's and everything they link,
// by import path.
type graph map[string]*pkg

// load lists the module's packages and everything they link in build b,
// without their tests (a test's imports do not ship). CGO_ENABLED=1 so
// that the files a cgo build uses are the ones listed; listing needs no C
// compiler.
func load(b build) (graph, error) {
	cmd := exec.Command("go", "list", "-e", "-deps", "-json=ImportPath,Name,Imports,Error", "-tags", b.tags, module+"/...")
	cmd.Env = append(os.Environ(), "GOOS="+b.goos, "GOARCH=amd64", "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, stderr.Bytes())
	}
	g := graph{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		// A package of ours that does not load would leave its imports
		// out of the graph, and a rule could pass for want of them.
		if p.Error != nil && strings.HasPrefix(p.ImportPath, module+"/") {
			return nil, fmt.Errorf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		g[p.ImportPath] = &p
	}
	if len(g) == 0 {
		return nil, errors.New("go list listed no package")
	}
	return g, nil
}

func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if match(pat, p) {
			return true
		}
	}
	return false
}

// match reports whether path p matches pattern pat as the go command
// reads package patterns.
func match(pat, p string) bool {
	if !strings.Contains(pat, "...") {
		return p == pat
	}
	if base, ok := strings.CutSuffix(pat, "/..."); ok && !strings.Contains(base, "...") {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	re, ok := patterns[pat]
	if !ok {
		re = regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(pat), `\.\.\.`, `.*`) + "$")
		patterns[pat] = re
	}
	return re.MatchString(p)
}

// patterns caches the compiled patterns with "..." other than at the
// end (testOnly's); a test run matches them some ten thousand times.
var patterns = map[string]*regexp.Regexp{}

// TestRuleViolations holds the checker itself to a small graph, so that
// a rule cannot pass because the check looked nowhere.
func TestRuleViolations(t *testing.T) {
	g := graph{
		"mailnode/a":      {Imports: []string{"mailnode/b", "fmt"}},
		"mailnode/b":      {Imports: []string{"mailnode/c/d"}},
		"mailnode/c/d":    {Imports: []string{"fyne.io/fyne/v2"}},
		"fyne.io/fyne/v2": {},
		"fmt":             {},
		"mailnode/xtest":  {},
		"mailnode/e":      {Imports: []string{"mailnode/xtest"}},
	}
	tests := []struct {
		name string
		r    rule
		want []string
	}{
		{"linked", rule{from: []string{"mailnode/a"}, deny: []string{fyne}},
			[]string{"mailnode/a -> mailnode/b -> mailnode/c/d -> fyne.io/fyne/v2"}},
		{"chain stops at the first denied", rule{from: []string{"mailnode/a"}, deny: []string{"mailnode/c/...", fyne}},
			[]string{"mailnode/a -> mailnode/b -> mailnode/c/d"}},
		{"direct", rule{from: []string{"mailnode/a"}, deny: []string{fyne}, direct: true}, nil},
		{"direct import", rule{from: []string{"mailnode/a"}, deny: []string{"mailnode/..."}, allow: []string{"mailnode/a"}, direct: true},
			[]string{"mailnode/a -> mailnode/b"}},
		{"allowed", rule{from: []string{"mailnode/a"}, deny: []string{"mailnode/..."}, allow: []string{"mailnode/b", "mailnode/c/..."}}, nil},
		{"each package its own chain", rule{from: []string{"mailnode/a", "mailnode/c/..."}, deny: []string{fyne}},
			[]string{"mailnode/c/d -> fyne.io/fyne/v2"}},
		{"except", rule{from: []string{"mailnode/..."}, except: []string{"mailnode/c/d"}, deny: []string{fyne}},
			[]string{"mailnode/b -> mailnode/c/d -> fyne.io/fyne/v2"}},
		{"test-only", rule{from: []string{"mailnode/..."}, deny: testOnly}, []string{"mailnode/e -> mailnode/xtest"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.violations(g, tt.r.packages(g)); !slices.Equal(got, tt.want) {
				t.Errorf("violations = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pat, p string
		want   bool
	}{
		{"mailnode/app/...", "mailnode/app", true},
		{"mailnode/app/...", "mailnode/app/ui", true},
		{"mailnode/app/...", "mailnode/apptest", false},
		{"mailnode/app", "mailnode/app/ui", false},
		{"mailnode/...test", "mailnode/relay/acmetest", true},
		{"mailnode/...test", "mailnode/relay/acmetest/x", false},
		{"fyne.io/...", "fyne.io/systray", true},
	}
	for _, tt := range tests {
		if got := match(tt.pat, tt.p); got != tt.want {
			t.Errorf("match(%q, %q) = %v, want %v", tt.pat, tt.p, got, tt.want)
		}
	}
}
