# mailnode: `make demo` runs the node on a built-in sample mailbox; `make test`
# installs what the tests need (Dovecot) and runs every test.
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
GO ?= go

.PHONY: demo test test-deps vet bench bench-deps bench-relay fuzz build eval eval-deps

demo:
	$(GO) run ./cmd/mailnode demo

# Debian packages the tests need: a real Dovecot IMAP server, and Chromium
# for the phone web app's browser test.
test-deps:
	@{ command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ]; } && command -v chromium >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq dovecot-imapd chromium >/dev/null; }

vet:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...

# MAILNODE_TEST_DOVECOT=1 and MAILNODE_TEST_BROWSER=1 make a missing Dovecot
# or Chromium a failure, not a skip. The race detector is on: the sync code
# runs a pipeline of goroutines.
test: test-deps vet
	MAILNODE_TEST_DOVECOT=1 MAILNODE_TEST_BROWSER=1 $(GO) test -race -count=1 ./...

build:
	$(GO) build -o mailnode ./cmd/mailnode

# The benchmarks of docs/benchmarks.md. The sync benchmark: 50,000 generated messages in a
# local Dovecot, mailnode against mbsync (Debian isync) in the same run.
bench-deps: test-deps
	@command -v mbsync >/dev/null 2>&1 || { \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq isync >/dev/null; }

bench: bench-deps
	MAILNODE_TEST_DOVECOT=1 $(GO) test -count=1 -run '^$$' -bench . -benchtime 1x -timeout 60m ./mail/imapsync/bench/
	$(GO) test -run '^$$' -bench Verify -count 5 ./gateway/httpsig/
	$(GO) test -run '^$$' -bench GatewayThroughput -benchtime 1x ./gateway/
	$(GO) test -run '^$$' -bench PhonePrompts -benchtime 1x ./app/
	$(MAKE) bench-relay

# The relay's figures (docs/benchmarks.md), on 2 cores: resolve throughput, tunnel
# throughput and added latency against direct TLS, 10,000 idle tunnels in a relay process
# of their own, reconnect after a relay restart (about 3 minutes).
bench-relay:
	$(GO) test -run '^$$' -bench 'Resolve$$' -benchtime 5s -count 3 -cpu 2 ./relay/relayserver/
	$(GO) test -run '^$$' -bench 'Tunnel(Throughput|Latency)$$|IdleTunnels$$|Reconnect$$' -benchtime 1x -cpu 2 -timeout 20m ./relay/relayserver/

FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./mail/mime/
	$(GO) test -run '^$$' -fuzz FuzzHTMLToText -fuzztime $(FUZZTIME) ./mail/mime/
	$(GO) test -run '^$$' -fuzz FuzzVerify -fuzztime $(FUZZTIME) ./gateway/httpsig/
	$(GO) test -run '^$$' -fuzz FuzzParseDocument -fuzztime $(FUZZTIME) ./gateway/agentkeys/
	$(GO) test -run '^$$' -fuzz FuzzMCP -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./gateway/
	$(GO) test -run '^$$' -fuzz FuzzExtract -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./extract/
	$(GO) test -run '^$$' -fuzz FuzzText -fuzztime $(FUZZTIME) ./gateway/redact/
	$(GO) test -run '^$$' -fuzz FuzzAddressed -fuzztime $(FUZZTIME) ./extract/injection/
	$(GO) test -run '^$$' -fuzz FuzzFind -fuzztime $(FUZZTIME) ./extract/answer/
	$(GO) test -run '^$$' -fuzz FuzzParseURL -fuzztime $(FUZZTIME) ./approvals/pairing/
	$(GO) test -run '^$$' -fuzz FuzzPhoneAPI -fuzztime $(FUZZTIME) ./gateway/phone/
	$(GO) test -run '^$$' -fuzz FuzzCheckArguments -fuzztime $(FUZZTIME) ./gateway/tools/
	$(GO) test -run '^$$' -fuzz FuzzWordIndex -fuzztime $(FUZZTIME) ./extract/injection/
	$(GO) test -run '^$$' -fuzz FuzzPeekClientHello -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzNormalizeAddress -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzResolveBody -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzParseTunnelHello -fuzztime $(FUZZTIME) ./relay/
	$(GO) test -run '^$$' -fuzz FuzzParseDocument -fuzztime $(FUZZTIME) ./mail/autoconfig/

# KDE KItinerary's extractor (Debian libkpimitinerary-bin), run beside mailnode's on the
# public travel mails.
eval-deps:
	@[ -n "$$(ls /usr/lib/*/libexec/kf*/kitinerary-extractor 2>/dev/null)" ] || { \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libkpimitinerary-bin >/dev/null; }

# The extractors' evaluation (docs/benchmarks.md): field-level precision and recall per kind
# on the public travel mails with KItinerary side by side, and on the synthetic orders and
# bills; shuffled replay, redaction of planted secrets. -v lists every miss.
eval: eval-deps
	$(GO) run ./cmd/mailnode-eval
