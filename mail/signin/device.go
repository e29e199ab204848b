package signin

import (
	"context"
	"errors"
	"fmt"
	"time"
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
