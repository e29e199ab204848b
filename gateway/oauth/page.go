package oauth

import (
	"crypto/rand"
	"encoding/base64"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"mailnode/approvals"
)

// The consent page is the node's own: no script, no external asset, one
// inline style allowed by its nonce, never framed. It reloads itself every
// two seconds (a meta refresh, which needs no script) until the person
// decided on the phone.
var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{if .Poll}}<meta http-equiv="refresh" content="2;url={{.Poll}}">{{end}}
<title>mailnode: {{.Title}}</title>
<style nonce="{{.Nonce}}">
body{font-family:system-ui,sans-serif;max-width:34em;margin:2em auto;padding:0 1em;line-height:1.5;color:#222}
.code{font:bold 2.2em ui-monospace,monospace;letter-spacing:.15em;padding:.3em .6em;border:2px solid #222;display:inline-block}
.logo{max-width:64px;max-height:64px}.who{font-weight:bold}.muted{color:#555}li{margin:.2em 0}
</style></head><body>
<h1>{{.Title}}</h1>
{{if .Code}}
{{if .Logo}}<p><img class="logo" src="{{.Logo}}" alt=""></p>{{end}}
<p><span class="who">{{.Label}}</span>{{if .Name}}, which calls itself <q>{{.Name}}</q>{{if .NameNote}} <span class="muted">({{.NameNote}})</span>{{end}},{{end}} asks to connect to your mail through this node.</p>
<p>It asks to use:</p>
<ul>{{range .Tiers}}<li>{{.}}</li>{{end}}</ul>
<p>Approve it on your paired phone if the phone shows this same code:</p>
<p class="code">{{.Code}}</p>
<p class="muted">No phone paired? Run <code>mailnode approvals approve {{.Code}}</code> on the computer that runs the node.
This page goes on by itself once you have decided. If you did not start this, deny it on the phone.</p>
{{else if .Waiting}}
<p><span class="who">{{.Name}}</span> asks to use <b>{{.Tool}}</b> ({{.Tier}}).</p>
<p>{{.Message}}</p>
<p class="code">{{.Waiting}}</p>
{{else}}
<p>{{.Message}}</p>
{{end}}
</body></html>
`))

type pageData struct {
	Title, Nonce, Name, Label, Code, Message string
	// Label, the client's checked identity, comes first and in bold
	// for every client; Name, its claim, after it and quoted, so that
	// a name such as "Claude (claude.ai)" cannot read as the identity
	// (outside attack 43c, finding 4). NameNote flags a name that mixes
	// scripts or names another site (nameNote).
	NameNote string
	// Waiting, Tool and Tier are a tool call's approval page's
	// (serveApproval): its match code, the tool and its tier.
	Waiting, Tool, Tier string
	Poll                string
	Logo                template.URL // a data: URL the node made (Client.Logo)
	Tiers               []string
}

func (s *Server) writePage(w http.ResponseWriter, status int, d pageData) {
	var n [16]byte
	rand.Read(n[:])
	d.Nonce = base64.RawStdEncoding.EncodeToString(n[:])
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; img-src data:; style-src 'nonce-"+d.Nonce+"'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := pageTmpl.Execute(w, d); err != nil {
		s.log.Debug("Cannot write consent page", "err", err)
	}
}

func (s *Server) consentPage(w http.ResponseWriter, c Client, tiers []approvals.Tier, code, requestID string) {
	d := pageData{Title: "Connect an application", Name: c.Name, Label: c.Label(), Code: code, Logo: template.URL(c.Logo),
		NameNote: nameNote(c.Name, c.Domain),
		Poll:     AuthorizePath + "?" + url.Values{authorizeRequestParam: {requestID}}.Encode()}
	for _, t := range tiers {
		line := string(t) + ": " + s.cfg.Describe(t)
		if t.PerCall() {
			line += " (each call asks you again)"
		}
		d.Tiers = append(d.Tiers, line)
	}
	s.writePage(w, http.StatusOK, d)
}

func (s *Server) errorPage(w http.ResponseWriter, status int, msg string) {
	s.writePage(w, status, pageData{Title: "Cannot connect this application", Message: msg})
}

// ApprovalURL is the node's page for a pending tool call of an OAuth
// client, at the node's name host: what a URL-mode elicitation (MCP
// 2026-07-28 input_required) points the person to. It shows the match
// code and what is asked, never the call's details (an excerpt comes from
// mail), and approves nothing: the paired phone does.
func ApprovalURL(host, approvalID string) string {
	return Issuer(host) + ApprovalPath + "?" + url.Values{"id": {approvalID}}.Encode()
}

// serveApproval is the page ApprovalURL names. It is shown only for an
// OAuth client's requests, and reloads itself while the request waits.
func (s *Server) serveApproval(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	a, err := s.cfg.Approvals.Get(r.Context(), id)
	// A consent's own prompt is not shown here: its code belongs on the
	// consent page of the browser that started it (bound by cookie), and
	// this page, which any browser may open, would hand it round that.
	if err != nil || !approvals.IsOAuthKey(a.KeyFP) || !strings.HasPrefix(id, "apr_") || a.Tool == consentTool {
		s.errorPage(w, http.StatusNotFound, "There is no such request.")
		return
	}
	d := pageData{Title: "Waiting for your phone", Name: a.Domain, Tool: a.Tool, Tier: string(a.Tier), Waiting: a.MatchCode}
	switch a.State {
	case approvals.Pending:
		d.Message = "Approve it on your paired phone if the phone shows this same code. This page goes on by itself."
		d.Poll = ApprovalPath + "?" + url.Values{"id": {id}}.Encode()
	case approvals.Approved, approvals.Used:
		d.Title, d.Message = "Approved", "You approved it on your phone: go back to the application, which can now go on."
	case approvals.Denied:
		d.Title, d.Message = "Refused", "You refused it on your phone."
	default:
		d.Title, d.Message = "No longer waiting", "This request is no longer waiting; the application may ask again."
	}
	s.writePage(w, http.StatusOK, d)
}
