// Package localclient calls a running node's local API (package
// localapi): the command line's way to the node that owns the store.
package localclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"mailnode/app/localapi"
	"mailnode/app/localapi/nodelock"
	"mailnode/approvals"
)

// ErrNodeNotRunning is returned by Dial when no node answers.
var ErrNodeNotRunning = errors.New("no node is running on this data directory")

// ErrNodeUnreachable is returned by Dial when a node runs on the data
// directory but this system has no AF_UNIX sockets to reach it by
// (package nodelock): a command must not open the node's store beside it.
var ErrNodeUnreachable = errors.New("a node is running on this data directory, but this system has no AF_UNIX sockets " +
	"(Windows 10 1803 and later have them) for commands to reach it: stop the node first, or use its window")

// Client calls one node.
type Client struct {
	// c answers within 30 s; long is c without the timeout, for the
	// calls that take as long as they take (a sync pass, a backup's key
	// derivation), under the caller's ctx.
	c, long *http.Client
}

var _ localapi.Backend = (*Client)(nil)

// Dial connects to the node running on dataDir.
func Dial(dataDir string) (*Client, error) {
	path := filepath.Join(dataDir, localapi.SocketName)
	c, err := net.Dial("unix", path)
	if nodelock.NoUnixSockets(err) && nodelock.Held(dataDir) {
		return nil, ErrNodeUnreachable
	}
	if err != nil {
		return nil, ErrNodeNotRunning
	}
	c.Close()
	t := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", path)
		},
	}
	return &Client{c: &http.Client{Timeout: 30 * time.Second, Transport: t}, long: &http.Client{Transport: t}}, nil
}

func (l *Client) do(ctx context.Context, r localapi.Route, path string, in, out any) error {
	return l.call(l.c, ctx, r, path, in, out)
}

func (l *Client) doLong(ctx context.Context, r localapi.Route, path string, in, out any) error {
	return l.call(l.long, ctx, r, path, in, out)
}

func (l *Client) call(hc *http.Client, ctx context.Context, r localapi.Route, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, "http://node"+path, body)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("local API: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e localapi.ErrorBody
		if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&e); err != nil || e.Error == "" {
			return fmt.Errorf("local API: %s", resp.Status)
		}
		return localapi.Decode(e)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (l *Client) Pending(ctx context.Context) ([]approvals.Approval, error) {
	var out []approvals.Approval
	return out, l.do(ctx, localapi.RoutePending, localapi.RoutePending.Path, nil, &out)
}

func (l *Client) Decide(ctx context.Context, idOrCode string, approve bool) (approvals.Approval, error) {
	var out approvals.Approval
	return out, l.do(ctx, localapi.RouteDecide, localapi.RouteDecide.Path, localapi.DecideRequest{ID: idOrCode, Approve: approve}, &out)
}

func (l *Client) Grants(ctx context.Context) ([]approvals.Grant, error) {
	var out []approvals.Grant
	return out, l.do(ctx, localapi.RouteGrants, localapi.RouteGrants.Path, nil, &out)
}

func (l *Client) Revoke(ctx context.Context, agent string, tier approvals.Tier) (int, error) {
	var out int
	return out, l.do(ctx, localapi.RouteRevoke, localapi.RouteRevoke.Path, localapi.RevokeRequest{Agent: agent, Tier: tier}, &out)
}

func (l *Client) Block(ctx context.Context, agent string) (string, error) {
	var out string
	return out, l.do(ctx, localapi.RouteBlock, localapi.RouteBlock.Path, localapi.RevokeRequest{Agent: agent}, &out)
}

func (l *Client) Audit(ctx context.Context, limit int) ([]approvals.AuditEntry, error) {
	var out []approvals.AuditEntry
	return out, l.do(ctx, localapi.RouteAudit, localapi.RouteAudit.Path+"?limit="+strconv.Itoa(limit), nil, &out)
}

func (l *Client) Pair(ctx context.Context, o localapi.PairOptions) (localapi.PairOffer, error) {
	var out localapi.PairOffer
	return out, l.do(ctx, localapi.RoutePair, localapi.RoutePair.Path, o, &out)
}

func (l *Client) SetLAN(ctx context.Context, on bool) (localapi.LANStatus, error) {
	var out localapi.LANStatus
	return out, l.do(ctx, localapi.RouteLAN, localapi.RouteLAN.Path, localapi.LANRequest{On: on}, &out)
}

func (l *Client) PairStatus(ctx context.Context, id string) (localapi.PairStatus, error) {
	var out localapi.PairStatus
	return out, l.do(ctx, localapi.RoutePairStatus, localapi.RoutePairStatus.URLPath(url.PathEscape(id)), nil, &out)
}

func (l *Client) Phones(ctx context.Context) ([]approvals.Phone, error) {
	var out []approvals.Phone
	return out, l.do(ctx, localapi.RoutePhones, localapi.RoutePhones.Path, nil, &out)
}

func (l *Client) ConfirmPhone(ctx context.Context, id string) (approvals.Phone, error) {
	var out approvals.Phone
	return out, l.do(ctx, localapi.RouteConfirmPhone, localapi.RouteConfirmPhone.Path, localapi.PhoneRequest{ID: id}, &out)
}

func (l *Client) RenamePhone(ctx context.Context, id, name string) (approvals.Phone, error) {
	var out approvals.Phone
	return out, l.do(ctx, localapi.RouteRenamePhone, localapi.RouteRenamePhone.Path, localapi.PhoneRequest{ID: id, Name: name}, &out)
}

func (l *Client) RemovePhone(ctx context.Context, id string) error {
	var out bool
	return l.do(ctx, localapi.RouteRemovePhone, localapi.RouteRemovePhone.Path, localapi.PhoneRequest{ID: id}, &out)
}

func (l *Client) Accounts(ctx context.Context) ([]localapi.Account, error) {
	var out []localapi.Account
	return out, l.do(ctx, localapi.RouteAccounts, localapi.RouteAccounts.Path, nil, &out)
}

func (l *Client) Show(ctx context.Context) error {
	var out bool
	return l.do(ctx, localapi.RouteShow, localapi.RouteShow.Path, nil, &out)
}

func (l *Client) SaveAccount(ctx context.Context, r localapi.SaveAccountRequest) (localapi.SavedAccount, error) {
	var out localapi.SavedAccount
	return out, l.do(ctx, localapi.RouteSaveAccount, localapi.RouteSaveAccount.Path, r, &out)
}

func (l *Client) RemoveAccount(ctx context.Context, name string) error {
	var out bool
	return l.do(ctx, localapi.RouteRemoveAcct, localapi.RouteRemoveAcct.Path, localapi.NameRequest{Name: name}, &out)
}

func (l *Client) NodeStatus(ctx context.Context) (localapi.NodeStatus, error) {
	var out localapi.NodeStatus
	return out, l.do(ctx, localapi.RouteStatus, localapi.RouteStatus.Path, nil, &out)
}

func (l *Client) Search(ctx context.Context, query string, limit int) ([]localapi.Summary, error) {
	var out []localapi.Summary
	q := url.Values{"q": {query}, "limit": {strconv.Itoa(limit)}}
	return out, l.do(ctx, localapi.RouteSearch, localapi.RouteSearch.Path+"?"+q.Encode(), nil, &out)
}

// SyncNow waits for the pass, however long: the client's own timeout
// does not apply (a first sync of a large mailbox takes many minutes);
// ctx ends it.
func (l *Client) SyncNow(ctx context.Context) (localapi.SyncReport, error) {
	var out localapi.SyncReport
	return out, l.doLong(ctx, localapi.RouteSync, localapi.RouteSync.Path, nil, &out)
}

func (l *Client) Drafts(ctx context.Context, limit int) ([]localapi.Draft, error) {
	var out []localapi.Draft
	return out, l.do(ctx, localapi.RouteDrafts, localapi.RouteDrafts.Path+"?limit="+strconv.Itoa(limit), nil, &out)
}

func (l *Client) Draft(ctx context.Context, id string) (localapi.Draft, error) {
	var out localapi.Draft
	return out, l.do(ctx, localapi.RouteDraft, localapi.RouteDraft.URLPath(url.PathEscape(id)), nil, &out)
}

func (l *Client) EditDraft(ctx context.Context, id string, subject, body *string) (localapi.Draft, error) {
	var out localapi.Draft
	return out, l.do(ctx, localapi.RouteEditDraft, localapi.RouteEditDraft.Path, localapi.EditDraftRequest{ID: id, Subject: subject, Body: body}, &out)
}

func (l *Client) Backup(ctx context.Context, passphrase string) ([]byte, error) {
	var out []byte
	return out, l.doLong(ctx, localapi.RouteBackup, localapi.RouteBackup.Path, localapi.BackupRequest{Passphrase: passphrase}, &out)
}
