// Package phone is where the user's paired phones enter the node: the
// pairing endpoint, the signed API the phone app and `mailnode phone`
// speak, the sealed stream of prompts, and the web app itself
// (docs/phone.md). It is served on the gateway's HTTPS listener under
// /phone/, so a phone reaches the node by its public hostname, as agents
// do, from any network.
//
// Everything a phone may do is decided here from the device that signed
// the request, as pinned at pairing; nothing a relay or a certificate
// holder carries can stand in for that key.
package phone

import (
	"mailnode/approvals/phoneapi"

	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"mailnode/approvals"
	"mailnode/approvals/pairing"
	"mailnode/approvals/push"
	"mailnode/gateway/httpsig"
	"mailnode/gateway/jsonhttp"
)

// Config is what the phone API needs. App may be nil (no web app).
type Config struct {
	Phones    *approvals.Phones
	Approvals *approvals.Manager
	// Nonces remembers the nonces of phone requests, so that a recorded
	// request cannot be replayed.
	Nonces httpsig.NonceStore
	// App is the web app, served at /phone/.
	App fs.FS
	// Push takes phones' push subscriptions. Nil: the node sends no push,
	// and the status carries no VAPID key.
	Push *push.Service
	// Heartbeat is how often an idle event stream sends a comment line
	// (default 15 s), so that proxies keep it open and a dead phone is
	// noticed.
	Heartbeat time.Duration
	Now       func() time.Time
}

// Limits of the phone API.
const (
	// MaxSkew is how far a request's time may be from the node's.
	MaxSkew = 60 * time.Second
	// nonceWindow is how long a request nonce is remembered: longer than
	// any time the skew check accepts.
	nonceWindow = 5 * time.Minute
	maxBody     = 64 << 10
	// activityShown is how many audit entries the state shows.
	activityShown = 50
)

// Handler serves /phone/.
type Handler struct {
	cfg Config
	log *slog.Logger
	app http.Handler
}

// New returns the phone API. It does no I/O.
func New(cfg Config, logger *slog.Logger) (*Handler, error) {
	if cfg.Phones == nil || cfg.Approvals == nil || cfg.Nonces == nil {
		return nil, errors.New("phone API: phones, approvals and nonces are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &Handler{cfg: cfg, log: logger.With("component", "phone")}
	if cfg.App != nil {
		h.app = http.StripPrefix("/phone/", http.FileServerFS(cfg.App))
	}
	return h, nil
}

// ServeHTTP routes by exact path.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	switch {
	case path == "/phone/pair":
		if r.Method != http.MethodPost {
			jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", "POST only")
			return
		}
		h.pair(w, r)
	case strings.HasPrefix(path, "/phone/api/"):
		h.api(w, r, strings.TrimPrefix(path, "/phone/api/"))
	case h.app != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		// The app shell: the same for everyone, it holds no data. The
		// content security policy keeps it to its own scripts.
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("Cache-Control", "no-cache")
		h.app.ServeHTTP(w, r)
	default:
		jsonhttp.Error(w, http.StatusNotFound, "not_found", "")
	}
}

func (h *Handler) pair(w http.ResponseWriter, r *http.Request) {
	var reg pairing.Registration
	if err := readJSON(w, r, &reg); err != nil {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	res, err := h.cfg.Phones.Register(r.Context(), reg)
	switch {
	case errors.Is(err, approvals.ErrOfferUnknown):
		jsonhttp.Error(w, http.StatusNotFound, "offer_unknown", err.Error())
	case errors.Is(err, approvals.ErrOfferUsed):
		jsonhttp.Error(w, http.StatusConflict, "offer_used", err.Error())
	case errors.Is(err, pairing.ErrBadRegistration):
		jsonhttp.Error(w, http.StatusForbidden, "bad_registration", "the registration does not prove the pairing code")
	case err != nil:
		h.log.Error("Cannot register a phone", "err", err)
		jsonhttp.Error(w, http.StatusInternalServerError, "internal_error", "try again")
	default:
		jsonhttp.Write(w, http.StatusOK, phoneapi.PairResult{DeviceID: res.Phone.ID, NodeProof: res.Proof, SAS: res.SAS})
	}
}

// request is a verified phone request.
type request struct {
	phone approvals.Phone
	nonce string // the request's nonce: associated data of what is sealed in answer
	body  []byte
}

// authenticate checks the Mailnode-Device header: a registered device,
// a time within MaxSkew, a fresh nonce and a signature by the device's
// pinned key over the method, path, time, nonce and body.
func (h *Handler) authenticate(w http.ResponseWriter, r *http.Request) (request, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		jsonhttp.Error(w, http.StatusRequestEntityTooLarge, "payload_too_large", "")
		return request{}, false
	}
	parts := strings.Split(r.Header.Get(phoneapi.HeaderName), ".")
	if len(parts) != 4 {
		jsonhttp.Error(w, http.StatusUnauthorized, "unauthenticated", "missing or malformed "+phoneapi.HeaderName+" header")
		return request{}, false
	}
	id, nonce, sig := parts[0], parts[2], parts[3]
	ts, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || len(nonce) < 16 || len(nonce) > 64 {
		jsonhttp.Error(w, http.StatusUnauthorized, "unauthenticated", "malformed "+phoneapi.HeaderName+" header")
		return request{}, false
	}
	now := h.cfg.Now()
	at := time.Unix(ts, 0)
	if at.Before(now.Add(-MaxSkew)) || at.After(now.Add(MaxSkew)) {
		jsonhttp.Error(w, http.StatusUnauthorized, "clock_skew", "the phone's clock is more than a minute off the node's")
		return request{}, false
	}
	ph, ok := h.cfg.Phones.Get(id)
	if !ok || !pairing.VerifySig(ph.SignKey(), pairing.RequestMessage(r.Method, r.URL.RequestURI(), ts, nonce, body), sig) {
		// One answer for an unknown device and a bad signature.
		jsonhttp.Error(w, http.StatusUnauthorized, "unauthenticated", "unknown device or bad signature")
		return request{}, false
	}
	fresh, err := h.cfg.Nonces.Use(r.Context(), "phone:"+id, nonce, at.Add(nonceWindow))
	if err != nil {
		h.log.Error("Cannot check a phone request's nonce", "err", err)
		jsonhttp.Error(w, http.StatusServiceUnavailable, "unavailable", "try again later")
		return request{}, false
	}
	if !fresh {
		jsonhttp.Error(w, http.StatusUnauthorized, "replayed", "request already seen")
		return request{}, false
	}
	return request{phone: ph, nonce: nonce, body: body}, true
}

func (h *Handler) api(w http.ResponseWriter, r *http.Request, route string) {
	want := map[string]string{
		"status": http.MethodGet, "state": http.MethodGet, "events": http.MethodGet,
		"decide": http.MethodPost, "revoke": http.MethodPost, "unblock": http.MethodPost,
		"phones/rename": http.MethodPost, "phones/remove": http.MethodPost,
		"push/subscribe": http.MethodPost, "push/unsubscribe": http.MethodPost,
	}[route]
	if want == "" {
		jsonhttp.Error(w, http.StatusNotFound, "not_found", "")
		return
	}
	if r.Method != want {
		w.Header().Set("Allow", want)
		jsonhttp.Error(w, http.StatusMethodNotAllowed, "method_not_allowed", want+" only")
		return
	}
	req, ok := h.authenticate(w, r)
	if !ok {
		return
	}
	if route == "status" {
		// The one call a phone makes before the user confirmed its code.
		st := phoneapi.Status{State: req.phone.State, Name: req.phone.Name, DeviceID: req.phone.ID}
		if h.cfg.Push != nil {
			p := req.phone.Push
			st.VAPIDPublicKey = h.cfg.Push.PublicKey()
			st.Push = &phoneapi.PushStatus{On: p.On, LastAt: p.LastAt, LastOK: p.LastOK, LastResult: p.LastResult}
		}
		h.sealed(w, req, st)
		return
	}
	if req.phone.State != approvals.PhonePaired {
		jsonhttp.Error(w, http.StatusForbidden, "not_paired", "confirm the short code on the node first")
		return
	}
	switch route {
	case "state":
		h.state(w, r, req)
	case "events":
		h.events(w, r, req)
	case "decide":
		h.decide(w, r, req)
	case "revoke":
		h.revoke(w, r, req)
	case "unblock":
		h.unblock(w, r, req)
	case "phones/rename", "phones/remove":
		h.phones(w, r, req, route)
	case "push/subscribe", "push/unsubscribe":
		h.push(w, r, req, route)
	}
}

// push takes or forgets the device's push subscription (docs/phone.md,
// "Notifications"); the body of a subscription is the browser's
// PushSubscription.toJSON().
func (h *Handler) push(w http.ResponseWriter, r *http.Request, req request, route string) {
	if h.cfg.Push == nil {
		jsonhttp.Error(w, http.StatusNotFound, "push_unavailable", "this node sends no push notifications")
		return
	}
	if route == "push/unsubscribe" {
		var v struct{}
		if err := strictJSON(req.body, &v); err != nil {
			jsonhttp.Error(w, http.StatusBadRequest, "bad_request", err.Error())
			return
		}
		if err := h.cfg.Push.Unsubscribe(r.Context(), req.phone.ID); err != nil {
			h.internal(w, "unsubscribe from push", err)
			return
		}
		jsonhttp.Write(w, http.StatusOK, map[string]string{"push": "off"})
		return
	}
	err := h.cfg.Push.Subscribe(r.Context(), req.phone.ID, req.body)
	var bad *push.BadSubscriptionError
	switch {
	case errors.As(err, &bad):
		h.log.Info("Refused a push subscription", "phone", req.phone.ID, "why", bad.Detail)
		jsonhttp.Error(w, http.StatusBadRequest, "bad_subscription", bad.Detail)
	case errors.Is(err, approvals.ErrNoPhone):
		jsonhttp.Error(w, http.StatusUnauthorized, "unauthenticated", "unknown device")
	case err != nil:
		h.internal(w, "subscribe to push", err)
	default:
		jsonhttp.Write(w, http.StatusOK, map[string]string{"push": "on"})
	}
}

// sealed answers with v sealed to the requesting device, bound to the
// request's nonce.
func (h *Handler) sealed(w http.ResponseWriter, req request, v any) {
	b, err := h.seal(req, v)
	if err != nil {
		h.log.Error("Cannot seal an answer to a phone", "err", err)
		jsonhttp.Error(w, http.StatusInternalServerError, "internal_error", "")
		return
	}
	jsonhttp.Write(w, http.StatusOK, map[string]string{"sealed": b})
}

func (h *Handler) seal(req request, v any) (string, error) {
	plain, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	box, err := pairing.Seal(h.cfg.Phones.NodeKey(), req.phone.BoxKey(), req.phone.ID, pairing.ToPhone, []byte(req.nonce), plain)
	if err != nil {
		return "", err
	}
	return pairing.Encode(box), nil
}

func (h *Handler) state(w http.ResponseWriter, r *http.Request, req request) {
	ctx := r.Context()
	pending, err := h.cfg.Approvals.Pending(ctx)
	if err != nil {
		h.internal(w, "read pending approvals", err)
		return
	}
	activity, err := h.cfg.Approvals.Audit(ctx, activityShown)
	if err != nil {
		h.internal(w, "read activity", err)
		return
	}
	st := phoneapi.State{Pending: make([]string, len(pending)), Phones: phoneList(h.cfg.Phones.List()),
		Grants: grantList(h.cfg.Approvals.Grants()), Blocked: h.cfg.Approvals.Blocked(), Activity: activityList(activity), Device: req.phone.ID}
	for i, a := range pending {
		st.Pending[i] = string(a.Prompt())
	}
	h.sealed(w, req, st)
}

// events streams prompts to a paired phone as server-sent events, each
// sealed to the device with the request's nonce as associated data: a
// recorded event cannot be played into another stream. Every pending
// request is sent first, then each new one as it is made.
func (h *Handler) events(w http.ResponseWriter, r *http.Request, req request) {
	ctx := r.Context()
	rc := http.NewResponseController(w)
	sub, cancel := h.cfg.Approvals.Subscribe()
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// The headers go out now, so the phone knows it is connected before
	// the first event.
	if err := rc.Flush(); err != nil {
		return
	}

	send := func(e phoneapi.Event) error {
		data, err := h.seal(req, e)
		if err != nil {
			return err
		}
		rc.SetWriteDeadline(time.Now().Add(2 * h.cfg.Heartbeat))
		if _, err := fmt.Fprintf(w, "data: %s\n\n", data); err != nil {
			return err
		}
		return rc.Flush()
	}
	// Taken before anything is sent, and again before each check, so
	// that no removal falls between a check and the next wait.
	changed := h.cfg.Phones.Changed()
	var cursor int64
	catchUp := func() error {
		pending, next, err := h.cfg.Approvals.PendingAfter(ctx, cursor)
		if err != nil {
			return err
		}
		cursor = next
		for _, a := range pending {
			if err := send(phoneapi.Event{Type: "prompt", Prompt: string(a.Prompt())}); err != nil {
				return err
			}
		}
		return nil
	}
	if err := catchUp(); err != nil {
		h.log.Debug("Phone event stream ended", "phone", req.phone.ID, "err", err)
		return
	}
	tick := time.NewTicker(h.cfg.Heartbeat)
	defer tick.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub:
			if !ok {
				return
			}
			switch ev.Kind {
			case "pending":
				err = catchUp()
			case "decided":
				err = send(phoneapi.Event{Type: "decided", ApprovalID: ev.Approval.ID, State: string(ev.Approval.State)})
			default:
				err = send(phoneapi.Event{Type: "changed"})
			}
		case <-changed:
			changed = h.cfg.Phones.Changed()
			if ph, ok := h.cfg.Phones.Get(req.phone.ID); !ok || ph.State != approvals.PhonePaired {
				h.log.Info("Phone removed: its event stream ends", "phone", req.phone.ID)
				return
			}
			err = send(phoneapi.Event{Type: "changed"})
		case <-tick.C:
			rc.SetWriteDeadline(time.Now().Add(2 * h.cfg.Heartbeat))
			if _, err = io.WriteString(w, ": ping\n\n"); err == nil {
				err = rc.Flush()
			}
		}
		if err != nil {
			h.log.Debug("Phone event stream ended", "phone", req.phone.ID, "err", err)
			return
		}
	}
}

func (h *Handler) decide(w http.ResponseWriter, r *http.Request, req request) {
	var d phoneapi.Decision
	if err := strictJSON(req.body, &d); err != nil {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	switch v := approvals.Verdict(d.Decision); v {
	case approvals.Approve, approvals.Deny, approvals.DenyAndBlock, approvals.DenyAndBlockSite:
	default:
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "decision is approve, deny, block or block_site")
		return
	}
	hash, err := pairing.Decode(d.PromptHash)
	if err != nil || len(hash) != 32 {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "prompt_hash is not a base64url SHA-256")
		return
	}
	if !pairing.VerifySig(req.phone.SignKey(), pairing.DecisionMessage(d.ApprovalID, d.Decision, hash, req.phone.ID), d.Signature) {
		jsonhttp.Error(w, http.StatusUnauthorized, "bad_signature", "the decision is not signed by this device")
		return
	}
	a, err := h.cfg.Approvals.Answer(r.Context(), d.ApprovalID, approvals.Verdict(d.Decision), hash)
	switch {
	case errors.Is(err, approvals.ErrNotFound):
		jsonhttp.Error(w, http.StatusNotFound, "not_found", "no such request")
	case errors.Is(err, approvals.ErrNotPending):
		jsonhttp.Error(w, http.StatusConflict, "not_pending", err.Error())
	case errors.Is(err, approvals.ErrPromptMismatch):
		h.log.Warn("Refused a decision over another prompt", "phone", req.phone.ID, "approvalID", d.ApprovalID)
		jsonhttp.Error(w, http.StatusConflict, "prompt_mismatch", err.Error())
	case err != nil:
		h.internal(w, "record a decision", err)
	default:
		h.log.Info("Phone decided", "phone", req.phone.ID, "approvalID", a.ID, "decision", d.Decision)
		jsonhttp.Write(w, http.StatusOK, map[string]string{"approval_id": a.ID, "state": string(a.State)})
	}
}

func (h *Handler) revoke(w http.ResponseWriter, r *http.Request, req request) {
	var v struct {
		Agent string `json:"agent"`
		Tier  string `json:"tier"`
	}
	if err := strictJSON(req.body, &v); err != nil || v.Agent == "" {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "agent is required")
		return
	}
	n, err := h.cfg.Approvals.Revoke(r.Context(), strings.ToLower(v.Agent), approvals.Tier(v.Tier))
	if err != nil {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	jsonhttp.Write(w, http.StatusOK, map[string]int{"revoked": n})
}

func (h *Handler) unblock(w http.ResponseWriter, r *http.Request, req request) {
	var v struct {
		Agent string `json:"agent"`
	}
	if err := strictJSON(req.body, &v); err != nil || v.Agent == "" {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "agent is required")
		return
	}
	if err := h.cfg.Approvals.Unblock(r.Context(), strings.ToLower(v.Agent)); err != nil {
		h.internal(w, "unblock an agent", err)
		return
	}
	jsonhttp.Write(w, http.StatusOK, map[string]bool{"unblocked": true})
}

func (h *Handler) phones(w http.ResponseWriter, r *http.Request, req request, route string) {
	var v struct {
		ID   string `json:"id"`
		Name string `json:"name,omitempty"`
	}
	if err := strictJSON(req.body, &v); err != nil || v.ID == "" {
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", "id is required")
		return
	}
	var err error
	if route == "phones/remove" {
		err = h.cfg.Phones.Remove(r.Context(), v.ID)
	} else {
		_, err = h.cfg.Phones.Rename(r.Context(), v.ID, v.Name)
	}
	switch {
	case errors.Is(err, approvals.ErrNoPhone):
		jsonhttp.Error(w, http.StatusNotFound, "not_found", "no such phone")
	case err != nil:
		jsonhttp.Error(w, http.StatusBadRequest, "bad_request", err.Error())
	default:
		jsonhttp.Write(w, http.StatusOK, map[string]bool{"ok": true})
	}
}

func (h *Handler) internal(w http.ResponseWriter, what string, err error) {
	h.log.Error("Phone API failed", "what", what, "err", err)
	jsonhttp.Error(w, http.StatusInternalServerError, "internal_error", "try again")
}

func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return errors.New("body too large or unreadable")
	}
	return strictJSON(body, v)
}

// strictJSON decodes one JSON object, refusing unknown fields.
func strictJSON(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errors.New("body is not the expected JSON object")
	}
	if dec.More() {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// The state's lists, as the phone API carries them.

func phoneList(ps []approvals.Phone) []phoneapi.Phone {
	out := make([]phoneapi.Phone, len(ps))
	for i, p := range ps {
		out[i] = phoneapi.Phone{ID: p.ID, Name: p.Name, State: p.State, Created: p.Created, PairedAt: p.PairedAt}
	}
	return out
}

func grantList(gs []approvals.Grant) []phoneapi.Grant {
	out := make([]phoneapi.Grant, len(gs))
	for i, g := range gs {
		out[i] = phoneapi.Grant{Agent: g.Domain, Tier: string(g.Tier), KeyFP: g.KeyFP, GrantedAt: g.GrantedAt,
			ExpiresAt: g.ExpiresAt, ApprovalID: g.ApprovalID}
	}
	return out
}

func activityList(es []approvals.AuditEntry) []phoneapi.Activity {
	out := make([]phoneapi.Activity, len(es))
	for i, e := range es {
		out[i] = phoneapi.Activity{At: e.At, Agent: e.Domain, KeyFP: e.KeyFP, Tool: e.Tool, Tier: string(e.Tier),
			Decision: string(e.Decision), ApprovalID: e.ApprovalID, Retries: e.Retries, LastAt: e.LastAt}
	}
	return out
}
