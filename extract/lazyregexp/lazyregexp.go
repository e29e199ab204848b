// Package lazyregexp is a regular expression compiled on its first use.
//
// The extractors hold a few hundred expressions in package variables,
// many of them alternations over every language's phrase lists. Compiled
// when the program started, they cost every mailnode command, and each
// start of the desktop app, more than a tenth of a second before it did
// anything, commands that never read a mail included. A Regexp here
// compiles when a method is first called, once, safely from any number
// of goroutines. The Go toolchain keeps a package of the same idea
// (internal/lazyregexp) for the same reason.
//
// In a test binary every expression compiles at once, so that a pattern
// that does not compile fails the tests of the package that holds it
// rather than waiting for a mail that reaches it.
package lazyregexp

import (
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
)

// Regexp is a regexp.Regexp compiled on its first use.
type Regexp struct {
	// rx is the compiled expression once there is one: a use after the
	// first costs a load and a test, which Regexp inlines into each
	// method below.
	rx   atomic.Pointer[regexp.Regexp]
	mu   sync.Mutex // held while compiling
	expr string
}

// inTest reports whether the program is a test binary (go test builds
// them as NAME.test).
var inTest = strings.HasSuffix(strings.TrimSuffix(os.Args[0], ".exe"), ".test")

// New returns expr, to be compiled with regexp.MustCompile on first use
// (at once in a test binary); a pattern that does not compile panics
// then, as MustCompile does.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	if inTest {
		r.Regexp()
	}
	return r
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	if rx := r.rx.Load(); rx != nil {
		return rx
	}
	return r.compile()
}

// compile compiles the expression, once however many goroutines ask.
func (r *Regexp) compile() *regexp.Regexp {
	r.mu.Lock()
	defer r.mu.Unlock()
	if rx := r.rx.Load(); rx != nil {
		return rx
	}
	rx := regexp.MustCompile(r.expr)
	r.rx.Store(rx)
	return rx
}

// String returns the source text.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }
func (r *Regexp) Match(b []byte) bool       { return r.Regexp().Match(b) }

func (r *Regexp) FindString(s string) string           { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int       { return r.Regexp().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}

func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllLiteralString(src, repl string) string {
	return r.Regexp().ReplaceAllLiteralString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}

func (r *Regexp) Split(s string, n int) []string                { return r.Regexp().Split(s, n) }
func (r *Regexp) SubexpIndex(name string) int                   { return r.Regexp().SubexpIndex(name) }
func (r *Regexp) SubexpNames() []string                         { return r.Regexp().SubexpNames() }
func (r *Regexp) NumSubexp() int                                { return r.Regexp().NumSubexp() }
func (r *Regexp) LiteralPrefix() (prefix string, complete bool) { return r.Regexp().LiteralPrefix() }
