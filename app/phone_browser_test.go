package app_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mailnode/app"
	"mailnode/approvals"
)

// browser starts headless Chromium (Debian package chromium). Without
// it the test is skipped, unless MAILNODE_TEST_BROWSER=1 (make test)
// makes that a failure.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("MAILNODE_TEST_BROWSER") == "1" {
			t.Fatal("chromium not found (apt-get install chromium)")
		}
		t.Skip("chromium not found; make test installs it")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // CI runs as root
		// The node's certificate is from its local CA, which this
		// throwaway profile does not trust; the test is about the app
		// and its protocol, not the web PKI.
		chromedp.Flag("ignore-certificate-errors", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	// The first Run starts the browser; it lives as long as ctx.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// TestPhoneWebApp pairs the web app in headless Chromium by its QR code's
// URL, receives an agent's prompt, checks the match code and approves;
// the agent's retried call then runs.
func TestPhoneWebApp(t *testing.T) {
	e := newE2E(t)
	ctx := browser(t)
	start := time.Now()
	defer func() { t.Logf("total %v", time.Since(start)) }()
	step, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	pairInBrowser(t, e, ctx, step, "Chromium")
	t.Logf("connected after %v", time.Since(start))
	_, ar := e.call("get_excerpt", map[string]string{"query": "flight to New York departure"})
	if ar == nil {
		t.Fatal("get_excerpt ran without approval")
	}
	card := fmt.Sprintf(`li.request[data-approval-id=%q]`, ar.ApprovalID)
	var code, details string
	err := chromedp.Do(step, chromedp.WaitVisible(chromedp.CSS(card)))
	if err == nil {
		code, err = chromedp.Run(step, chromedp.Text(chromedp.CSS(card+` [data-test=match-code]`)))
	}
	if err == nil {
		details, err = chromedp.Run(step, chromedp.Text(chromedp.CSS(card+` .details`)))
	}
	if err != nil {
		t.Fatalf("prompt in the browser: %v", err)
	}
	if code != ar.MatchCode || !strings.Contains(details, "flight to New York departure") {
		t.Fatalf("the web app shows code %q and %q; the agent shows %q", code, details, ar.MatchCode)
	}
	// The agent polls while it waits: the same request, one entry of the
	// activity list that says how often it asked.
	if _, again := e.call("get_excerpt", map[string]string{"query": "flight to New York departure"}); again == nil || again.ApprovalID != ar.ApprovalID {
		t.Fatalf("the retried call while waiting = %+v, want approval %s again", again, ar.ApprovalID)
	}
	if err := chromedp.Do(step, chromedp.Click(chromedp.CSS(card+` button[data-action=approve]`)), chromedp.WaitNotPresent(chromedp.CSS(card))); err != nil {
		t.Fatalf("approve in the browser: %v", err)
	}
	res, ar2 := e.call("get_excerpt", map[string]string{"query": "flight to New York departure"})
	if ar2 != nil || !strings.Contains(string(res), `"found":true`) {
		t.Fatalf("after approval in the browser: %s %+v", res, ar2)
	}
	// The approval's "decided" event reloads the state.
	if err := chromedp.Do(step, waitContains(`#activity-list`, "asked 2 times")); err != nil {
		t.Fatalf("activity after the approval: %v\n%s", err, pageText(ctx))
	}
}

// pairInBrowser pairs the web app in the tab by the QR code's URL, checks
// that it shows the node's short code, confirms it on the node and waits
// until the app is connected; it returns the phone.
func pairInBrowser(t *testing.T, e *e2e, ctx, step context.Context, name string) approvals.Phone {
	t.Helper()
	offer, err := e.node.Pair(context.Background(), app.PairOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = chromedp.Do(step,
		chromedp.Navigate(offer.URL),
		chromedp.WaitVisible(chromedp.ID("pair-go")),
		chromedp.SetValue(chromedp.ID("pair-name"), name),
		chromedp.Click(chromedp.ID("pair-go")),
		chromedp.WaitVisible(chromedp.CSS(`[data-test=sas]`)),
	)
	var sas string
	if err == nil {
		sas, err = chromedp.Run(step, chromedp.Text(chromedp.CSS(`[data-test=sas]`)))
	}
	if err != nil {
		t.Fatalf("pairing in the browser: %v\n%s", err, pageText(ctx))
	}
	t.Logf("paired in the browser after %v", time.Since(start))
	st, err := e.node.PairStatus(context.Background(), offer.ID)
	if err != nil || !st.Registered || st.SAS != strings.TrimSpace(sas) || st.Phone.Name != name {
		t.Fatalf("node shows %+v (%v), the web app shows %q", st, err, sas)
	}
	ph, err := e.node.ConfirmPhone(context.Background(), st.Phone.ID)
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(step,
		chromedp.WaitVisible(chromedp.ID("requests")),
		waitText(`[data-test=status]`, "connected"),
	)
	var url string
	if err == nil {
		url, err = chromedp.Run(step, chromedp.Location())
	}
	if err != nil {
		t.Fatalf("after confirmation: %v", err)
	}
	if strings.Contains(url, "pair=") {
		t.Errorf("the pairing secret stayed in the address: %s", url)
	}
	return ph
}

// waitText waits until the element's text is want.
func waitText(sel, want string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			got, err := chromedp.Text(chromedp.CSS(sel))(ctx, t)
			if err != nil {
				return err
			}
			if strings.TrimSpace(got) == want {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s shows %q, want %q: %w", sel, got, want, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// waitContains waits until the element's text (shown or not) holds want.
func waitContains(sel, want string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			got, err := chromedp.Evaluate[string](fmt.Sprintf("document.querySelector(%q)?.textContent ?? ''", sel))(ctx, t)
			if err != nil {
				return err
			}
			if strings.Contains(got, want) {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("%s shows %q, want it to hold %q: %w", sel, got, want, ctx.Err())
			case <-time.After(100 * time.Millisecond):
			}
		}
	})
}

// pageText is the page's visible text, for a failure's message.
func pageText(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.innerText"))
	if err != nil {
		return "(page text unavailable: " + err.Error() + ")"
	}
	return text
}
