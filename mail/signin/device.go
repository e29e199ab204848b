package signin

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/oauth2"
)

// DeviceCode is what the person must do on another device: open URI (or
// URIComplete, which carries the code) and enter UserCode before Expiry.
type DeviceCode struct {
	UserCode    string
	URI         string
	URIComplete string
	Expiry      time.Time
}

// ErrNoDeviceFlow is a provider that has no device flow for mail.
var ErrNoDeviceFlow = errors.New("no device sign-in for mail")

// Device signs in with the device authorization grant (RFC 8628), for a
// node with no browser: show tells the person the code and where to enter
// it (the CLI prints it), then Device polls the token endpoint at the
// interval the provider asks for until the person is done, the code
// expires or ctx ends.
func Device(ctx context.Context, p Provider, show func(DeviceCode) error, o Options) (*Grant, error) {
	if p.DeviceAuthURL == "" {
		why := p.NoDeviceFlow
		if why == "" {
			why = p.Name + " offers no device sign-in"
		}
		return nil, fmt.Errorf("%w: %s", ErrNoDeviceFlow, why)
	}
	log := o.logger().With("component", "signin", "provider", p.ID)
	cfg := p.oauth2Config("")
	hctx := o.ctx(ctx)
	da, err := cfg.DeviceAuth(hctx)
	if err != nil {
		return nil, providerError(p, err)
	}
	clampDevice(da, time.Now())
	if err := show(DeviceCode{UserCode: da.UserCode, URI: da.VerificationURI, URIComplete: da.VerificationURIComplete, Expiry: da.Expiry}); err != nil {
		return nil, err
	}
	log.Info("Waiting for the device code to be entered", "uri", da.VerificationURI)
	tok, err := cfg.DeviceAccessToken(hctx, da)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("sign-in to %s: %w", p.Name, ctx.Err())
		}
		return nil, providerError(p, err)
	}
	g, err := finish(hctx, p, tok, "")
	if err != nil {
		return nil, err
	}
	log.Info("Signed in", "account", g.Address)
	return g, nil
}

// Bounds on what a provider's device authorization answer may ask for.
const (
	defaultDeviceInterval = 5  // seconds, RFC 8628 section 3.2's default
	maxDeviceInterval     = 60 // seconds between polls at most
	maxDeviceWait         = 30 * time.Minute
)

// clampDevice keeps a provider's interval and expiry within what the node
// can wait for. x/oauth2 maps only 0 to the default interval and hands
// any other value to time.NewTicker, which panics on a non-positive one
// (-1, or a huge one that overflows time.Duration): a provider's answer
// must not crash the node. An expiry further than maxDeviceWait (or
// already past, as an overflowing expires_in gives) waits maxDeviceWait;
// none leaves the caller's deadline.
func clampDevice(da *oauth2.DeviceAuthResponse, now time.Time) {
	if da.Interval <= 0 {
		da.Interval = defaultDeviceInterval
	}
	da.Interval = min(da.Interval, maxDeviceInterval)
	if !da.Expiry.IsZero() && (da.Expiry.After(now.Add(maxDeviceWait)) || !da.Expiry.After(now)) {
		da.Expiry = now.Add(maxDeviceWait)
	}
}
