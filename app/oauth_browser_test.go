package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mailnode/app"
)

// TestOAuthConsentInBrowser: the consent page in headless Chromium as a
// person meets it after pasting the node's address into a hosted client,
// and the phone web app (paired in another tab) showing the same code;
// approving there sends the page back to the client with a code, which
// the client exchanges. MAILNODE_SCREENSHOTS=DIR writes both screens to
// DIR (oauth-consent.png, oauth-phone.png): the README's pictures.
func TestOAuthConsentInBrowser(t *testing.T) {
	e := newE2E(t)
	phoneTab := browser(t)
	ctx := context.Background()
	offer, err := e.node.Pair(ctx, app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	step, cancel := context.WithTimeout(phoneTab, 30*time.Second)
	defer cancel()
	err = chromedp.Do(step,
		chromedp.EmulateViewport(400, 760),
		chromedp.Navigate(offer.URL),
		chromedp.WaitVisible(chromedp.ID("pair-go")),
		chromedp.SetValue(chromedp.ID("pair-name"), "Phone"),
		chromedp.Click(chromedp.ID("pair-go")),
		chromedp.WaitVisible(chromedp.CSS(`[data-test=sas]`)),
	)
	if err != nil {
		t.Fatalf("pairing in the browser: %v\n%s", err, pageText(phoneTab))
	}
	st, err := e.node.PairStatus(ctx, offer.ID)
	if err != nil || !st.Registered {
		t.Fatalf("pair status %+v %v", st, err)
	}
	if _, err := e.node.ConfirmPhone(ctx, st.Phone.ID); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(step, chromedp.WaitVisible(chromedp.ID("requests")), waitText(`[data-test=status]`, "connected")); err != nil {
		t.Fatalf("after confirmation: %v", err)
	}

	// The hosted client registers and sends the person to the node.
	c := &oauthClient{t: t, e: e, base: strings.TrimSuffix(e.nodeURL, "/mcp"), http: e.httpClient(nil)}
	// The client's callback, on loopback as a native client's is.
	arrived := make(chan url.Values, 1)
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- r.URL.Query():
		default:
		}
		io.WriteString(w, "connected")
	}))
	defer cb.Close()
	back := cb.URL + "/callback"
	reg := c.form("/oauth/register", nil) // a form is not a registration
	if reg["error"] == nil {
		t.Fatalf("registration by form = %v", reg)
	}
	clientID := registerJSON(t, c, `{"client_name":"Claude","redirect_uris":["`+back+`"]}`)
	verifier := strings.Repeat("browser-verifier-", 3)
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {back}, "state": {"s1"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {c.base + "/oauth/mcp"}, "scope": {"structured_read free_form_read raw_read"}}

	consentTab, cancelTab := chromedp.NewContext(phoneTab)
	defer cancelTab()
	cstep, cancel2 := context.WithTimeout(consentTab, 30*time.Second)
	defer cancel2()
	var pageCode string
	err = chromedp.Do(cstep, chromedp.EmulateViewport(720, 640), chromedp.Navigate(c.base+"/oauth/authorize?"+q.Encode()),
		chromedp.WaitVisible(chromedp.CSS(`p.code`)))
	if err == nil {
		pageCode, err = chromedp.Run(cstep, chromedp.Text(chromedp.CSS(`p.code`)))
	}
	if err != nil {
		t.Fatalf("consent page: %v\n%s", err, pageText(consentTab))
	}
	pending, err := e.node.Pending(ctx)
	if err != nil || len(pending) != 1 || pending[0].MatchCode != strings.TrimSpace(pageCode) {
		t.Fatalf("pending %+v %v; the page shows %q", pending, err, pageCode)
	}
	card := fmt.Sprintf(`li.request[data-approval-id=%q]`, pending[0].ID)
	var phoneCode string
	err = chromedp.Do(step, chromedp.WaitVisible(chromedp.CSS(card)))
	if err == nil {
		phoneCode, err = chromedp.Run(step, chromedp.Text(chromedp.CSS(card+` [data-test=match-code]`)))
	}
	if err != nil || strings.TrimSpace(phoneCode) != strings.TrimSpace(pageCode) {
		t.Fatalf("the phone shows %q (%v), the page %q", phoneCode, err, pageCode)
	}
	if dir := os.Getenv("MAILNODE_SCREENSHOTS"); dir != "" {
		for name, tab := range map[string]context.Context{"oauth-consent.png": cstep, "oauth-phone.png": step} {
			png, err := chromedp.Run(tab, chromedp.FullScreenshot(90))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := chromedp.Do(step, chromedp.Click(chromedp.CSS(card+` button[data-action=approve]`)), chromedp.WaitNotPresent(chromedp.CSS(card))); err != nil {
		t.Fatalf("approve in the browser: %v", err)
	}
	// The page goes on by itself, to the client's redirect URI.
	var got url.Values
	select {
	case got = <-arrived:
	case <-time.After(10 * time.Second):
		t.Fatalf("the consent page did not go back to the client: %s", pageText(consentTab))
	}
	if got.Get("state") != "s1" || got.Get("code") == "" || got.Get("iss") != c.base {
		t.Fatalf("the client got %v", got)
	}
	tok := c.form("/oauth/token", url.Values{"grant_type": {"authorization_code"}, "code": {got.Get("code")},
		"client_id": {clientID}, "redirect_uri": {back}, "code_verifier": {verifier}})
	if tok["access_token"] == nil {
		t.Fatalf("token = %v", tok)
	}
	if _, res := c.call(tok["access_token"].(string), "get_upcoming_travel", map[string]any{}); res == nil || res["trips"] == nil {
		t.Fatalf("get_upcoming_travel = %v", res)
	}
}
