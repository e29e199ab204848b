package oidctest

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
)

// Browser is a person at the provider's pages: plain HTTP requests with a
// cookie jar, filling in each page's form.
type Browser struct {
	p  *Provider
	hc *http.Client
}

// NewBrowser is a browser with no session at the provider yet.
func (p *Provider) NewBrowser() *Browser {
	jar, _ := cookiejar.New(nil)
	hc := p.HTTPClient()
	hc.Jar = jar
	return &Browser{p: p, hc: hc}
}

// SignIn opens authURL (the node's sign-in address), logs in as login and
// consents. The provider then redirects to the node's loopback callback,
// which the browser follows like any redirect; the callback's page is
// returned.
func (b *Browser) SignIn(authURL, login string) (status int, body string, err error) {
	resp, page, err := b.get(authURL)
	if err != nil {
		return 0, "", err
	}
	return b.interact(resp, page, login)
}

// EnterCode enters a device flow's user code at uri (RFC 8628 section
// 3.3), confirms it, logs in as login and consents.
func (b *Browser) EnterCode(uri, userCode, login string) error {
	resp, page, err := b.get(uri)
	if err != nil {
		return err
	}
	if resp, page, err = b.submit(resp, page, map[string]string{"user_code": userCode}); err != nil {
		return err
	}
	// The confirmation page: the code shown again, "Continue".
	if resp, page, err = b.submit(resp, page, nil); err != nil {
		return err
	}
	status, page, err := b.interact(resp, page, login)
	if err != nil {
		return err
	}
	if status != http.StatusOK || !strings.Contains(page, "Sign-in Success") {
		return fmt.Errorf("after entering the code: %d %.300s", status, page)
	}
	return nil
}

// interact goes through the login and consent pages, as many as the
// provider shows, and returns the page it ends on.
func (b *Browser) interact(resp *http.Response, page, login string) (int, string, error) {
	for range 4 {
		if !strings.Contains(resp.Request.URL.Path, "/interaction/") {
			break
		}
		fields := map[string]string{}
		if strings.Contains(page, `name="login"`) {
			fields["login"], fields["password"] = login, "any password"
		}
		var err error
		if resp, page, err = b.submit(resp, page, fields); err != nil {
			return 0, "", err
		}
	}
	return resp.StatusCode, page, nil
}

func (b *Browser) get(u string) (*http.Response, string, error) {
	resp, err := b.hc.Get(u)
	if err != nil {
		return nil, "", err
	}
	return read(resp)
}

func read(resp *http.Response) (*http.Response, string, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp, string(body), err
}

var (
	formTag  = regexp.MustCompile(`(?is)<form\b[^>]*>.*?</form>`)
	actionRe = regexp.MustCompile(`(?i)\baction="([^"]*)"`)
	inputTag = regexp.MustCompile(`(?is)<input\b[^>]*>`)
	nameRe   = regexp.MustCompile(`(?i)\bname="([^"]*)"`)
	valueRe  = regexp.MustCompile(`(?i)\bvalue="([^"]*)"`)
)

// submit posts the page's first form with its hidden inputs and fields.
func (b *Browser) submit(resp *http.Response, page string, fields map[string]string) (*http.Response, string, error) {
	form := formTag.FindString(page)
	if form == "" {
		return nil, "", fmt.Errorf("no form on %s: %d %.300s", resp.Request.URL, resp.StatusCode, page)
	}
	vals := url.Values{}
	for _, in := range inputTag.FindAllString(form, -1) {
		n := nameRe.FindStringSubmatch(in)
		if n == nil {
			continue
		}
		v := ""
		if m := valueRe.FindStringSubmatch(in); m != nil {
			v = html.UnescapeString(m[1])
		}
		vals.Set(html.UnescapeString(n[1]), v)
	}
	for k, v := range fields {
		vals.Set(k, v)
	}
	action := resp.Request.URL
	if m := actionRe.FindStringSubmatch(form); m != nil && m[1] != "" {
		a, err := resp.Request.URL.Parse(html.UnescapeString(m[1]))
		if err != nil {
			return nil, "", err
		}
		action = a
	}
	r, err := b.hc.PostForm(action.String(), vals)
	if err != nil {
		return nil, "", err
	}
	return read(r)
}
