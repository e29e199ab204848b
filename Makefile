# mailnode: `make demo` runs the node on a built-in sample mailbox; `make test`
# installs what the tests need (Dovecot, Postfix, ...) and runs every test.
SHELL := /bin/bash
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
GO ?= go

.PHONY: demo test test-deps test-windows test-windows-desktop cross package-deps package-windows vet bench bench-deps bench-compare bench-compare-relay bench-relay bench-desktop fuzz build eval eval-deps eval-injection package

# The headless build: the demo needs no X11 or OpenGL headers (the desktop app's cgo build does).
demo:
	$(GO) run -tags headless ./cmd/mailnode demo

# Debian packages the tests need: a real Dovecot IMAP server, Chromium for
# the phone web app's browser test, and for the desktop app: the X11 and
# OpenGL headers Fyne's cgo build needs, Xvfb, a D-Bus session bus and
# ImageMagick's import and xwininfo (x11-utils) for its end-to-end test; and
# PostgreSQL, which the relay's store tests start on loopback; curl and
# Node.js, two of the HTTP clients the keep-alive tests send with; Postfix
# and Dovecot's LMTP server, which the relay's mailer submits to and
# Postfix delivers into (mail/mtatest); Python's venv, into which the push
# tests pip-install http-ece (approvals/push/pushtest: where the Python
# package index cannot be reached that check is left out and says so,
# unless MAILNODE_TEST_PUSH_PYTHON=1 requires it).
#
# Postfix is installed with no configuration (debconf's "No configuration")
# and must not run as the machine's mail server: the test starts its own
# from a private directory on a free loopback port. A policy-rc.d that
# refuses Postfix's services (written only if the machine has none: Docker
# images ship one that refuses every start) keeps the package from starting
# it, and once installed its services are masked so that it never holds
# port 25, not even after a reboot. A Postfix the machine already had is
# left alone.
#
# npm installs the MCP clients others wrote that gateway/mcpclients runs
# (pinned by its testdata/package-lock.json) and the OpenID Connect provider
# the mail sign-in tests run, oidc-provider (mail/oidctest, pinned by its
# npm/package-lock.json; under Debian's Node.js 18 also
# Node.js 22 from the npm registry, as the 2.x client needs 20 and
# oidc-provider 9 wants 22): it comes
# with the NodeSource nodejs of the machine image, which conflicts with
# Debian's npm package, so that is installed only where npm is missing.
# It also installs jose and http_ece, which approvals/push/pushtest checks
# the node's Web Push requests with (pinned by
# approvals/push/testdata/package-lock.json).
#
# Wine and the mingw-w64 cross compiler run the Windows build
# (internal/wintest: mailnode.exe version, the demo, the platform
# packages' Windows tests; mingw-w64 builds the DLL that Go's runtime
# needs and Wine 8 lacks); Wine refuses nothing as root.
#
# apt-get waits up to 5 minutes for another apt or dpkg (unattended-upgrades on
# a fresh machine) instead of failing on its lock, runs without questions
# (env, as sudo drops DEBIAN_FRONTEND from the environment), and says what it
# installs and why before the download starts, then nothing but errors.
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -qq
TEST_PKGS := dovecot-imapd dovecot-lmtpd postfix chromium libgl1-mesa-dev xorg-dev xvfb xauth dbus imagemagick x11-utils postgresql curl nodejs python3-venv wine wine64 gcc-mingw-w64-x86-64
test-deps:
	@{ command -v dovecot >/dev/null 2>&1 || [ -x /usr/sbin/dovecot ]; } && [ -x /usr/lib/dovecot/lmtp ] && [ -x /usr/sbin/postfix ] && command -v chromium >/dev/null 2>&1 && \
	  command -v Xvfb >/dev/null 2>&1 && command -v dbus-daemon >/dev/null 2>&1 && command -v import >/dev/null 2>&1 && command -v xwininfo >/dev/null 2>&1 && \
	  command -v curl >/dev/null 2>&1 && command -v node >/dev/null 2>&1 && python3 -c 'import venv, ensurepip' >/dev/null 2>&1 && \
	  command -v wine >/dev/null 2>&1 && command -v wineserver >/dev/null 2>&1 && command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 && \
	  [ -e /usr/include/GL/gl.h ] && [ -e /usr/include/X11/extensions/Xrandr.h ] && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || { \
	  echo "test-deps: installing with apt-get (several minutes on a fresh machine): Dovecot (the IMAP tests), Postfix and Dovecot's LMTP (the relay's mailer), Chromium (the phone web app), X11/OpenGL headers, Xvfb, D-Bus, ImageMagick and x11-utils (the desktop app), PostgreSQL (the relay store), curl and Node.js (keep-alive clients), Python's venv (the push checks), Wine and mingw-w64 (the Windows build): $(TEST_PKGS)"; \
	  had_postfix=$$(dpkg-query -W -f='$${Status}' postfix 2>/dev/null); \
	  if [ ! -e /usr/sbin/policy-rc.d ]; then \
	    trap '$(SUDO) rm -f /usr/sbin/policy-rc.d' EXIT; \
	    printf '#!/bin/sh\n# make test-deps: Postfix is not to start while it is installed\ncase "$$1" in postfix|postfix.service|postfix@*) exit 101;; esac\nexit 0\n' | \
	      $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null && $(SUDO) chmod 755 /usr/sbin/policy-rc.d; \
	  fi; \
	  echo 'postfix postfix/main_mailer_type select No configuration' | $(SUDO) debconf-set-selections && \
	  $(APT_GET) update && \
	  $(APT_GET) install -y $(TEST_PKGS) >/dev/null || exit 1; \
	  case "$$had_postfix" in *" installed") ;; *) \
	    echo "test-deps: masking the postfix service (the tests start their own Postfix)"; \
	    if [ -d /run/systemd/system ]; then $(SUDO) systemctl mask --now postfix.service 'postfix@-.service' >/dev/null; \
	    elif command -v systemctl >/dev/null 2>&1; then $(SUDO) systemctl mask postfix.service 'postfix@-.service' >/dev/null 2>&1; fi; \
	    $(SUDO) postfix stop >/dev/null 2>&1; \
	  esac; true; }
	@command -v npm >/dev/null 2>&1 || { \
	  echo "test-deps: installing npm with apt-get (Debian's Node.js comes without it): the MCP clients of gateway/mcpclients, oidc-provider of mail/oidctest"; \
	  $(APT_GET) update && $(APT_GET) install -y npm >/dev/null; }

# staticcheck, pinned: a newer release may add checks, which a change of
# this line brings in on purpose.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

vet:
	@unformatted=$$(gofmt -l .); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags headless ./cmd/mailnode
	$(GO) run $(STATICCHECK) -tags headless ./...

# MAILNODE_TEST_DOVECOT=1, MAILNODE_TEST_BROWSER=1, MAILNODE_TEST_DESKTOP=1,
# MAILNODE_TEST_POSTGRES=1, MAILNODE_TEST_POSTFIX=1, MAILNODE_TEST_PUSH=1 and
# MAILNODE_TEST_OIDC=1 make a missing Dovecot, Chromium, Xvfb, PostgreSQL,
# Postfix or Node.js (jose and http_ece, the push checks; oidc-provider, the
# mail sign-in) a failure, not a skip, and MAILNODE_TEST_WINE=1 a missing
# Wine or mingw-w64 (the Windows build under Wine, internal/wintest: about
# 3 minutes, most of it building mailnode.exe) (Postfix's
# master starts only as root: make test runs as root, as CI does). The race
# detector is on: the sync code runs a pipeline of goroutines. The packages
# are tested in the headless build (-tags headless), which keeps Fyne's cgo
# driver out of the test binaries; the desktop app's widgets are tested on
# Fyne's test driver (app/ui), and the real binary, built once, under Xvfb
# (app/ui/desktoptest). The connection-cap tests run again without the race
# detector, the only way they bring up 1,000 node tunnels from one address (it
# slows TLS handshakes tenfold: 100 under it), and so does the relay
# directory's timing test, whose in-process times would be the detector's.
# A package may take 25 minutes (go test's default is 10): the app's tests
# take 4 on an idle 2-core machine and passed 10 on a loaded one.
test: test-deps vet
	MAILNODE_TEST_DOVECOT=1 MAILNODE_TEST_BROWSER=1 MAILNODE_TEST_DESKTOP=1 MAILNODE_TEST_POSTGRES=1 MAILNODE_TEST_POSTFIX=1 MAILNODE_TEST_PUSH=1 MAILNODE_TEST_OIDC=1 MAILNODE_TEST_WINE=1 $(GO) test -race -count=1 -timeout 25m -tags headless ./...
	$(GO) test -count=1 -tags headless -run 'TestSlowClients|TestDirectoryTiming' ./relay/relayserver/ ./relay/relaystore/ ./cmd/mailnode-relay/ ./gateway/

# The Windows build under Wine alone (part of make test): mailnode.exe
# version, the headless demo, and the Windows tests of the packages with
# platform code (go test -exec wine); what Wine lacks is named in the
# output (internal/wintest's package doc).
test-windows: test-deps
	MAILNODE_TEST_WINE=1 $(GO) test -count=1 -v -run TestWine ./internal/wintest/

# The packaged Windows desktop app (make package-windows's zip) under Wine
# on an Xvfb display: its window on the demo mailbox (internal/wintest
# TestWineDesktop). .ci/run calls it after make package.
test-windows-desktop: test-deps
	@test -f mailnode-windows-amd64.zip || { echo "test-windows-desktop: run make package-windows first"; exit 1; }
	@set -e; dir=$$(mktemp -d); trap 'rm -rf '$$dir EXIT; unzip -q mailnode-windows-amd64.zip -d $$dir; \
	  MAILNODE_TEST_WINE=1 MAILNODE_WINE_DESKTOP_EXE=$$dir/mailnode/mailnode.exe $(GO) test -count=1 -v -run TestWineDesktop ./internal/wintest/

# The headless node and the agent for Windows and macOS (no cgo, so no
# desktop app: docs/desktop.md says how that is built), into dist/, and
# go vet for each of those systems of the packages with platform code
# (their tests included; the other packages' tests use unix-only helpers).
CROSS_TARGETS := windows/amd64 darwin/arm64 darwin/amd64
PLATFORM_PKGS := ./internal/privdir/ ./internal/wintest/ ./app/config/ ./app/autostart/ ./app/localapi/... ./mail/store/ ./mail/credential/ ./agent/
cross:
	@set -e; for t in $(CROSS_TARGETS); do os=$${t%/*}; arch=$${t#*/}; ext=; [ $$os = windows ] && ext=.exe; \
	  echo "cross: $$os/$$arch: mailnode (headless), mailnode-agent, go vet"; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -tags headless -trimpath -o dist/mailnode-$$os-$$arch$$ext ./cmd/mailnode; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -o dist/mailnode-agent-$$os-$$arch$$ext ./cmd/mailnode-agent; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) vet -tags headless $(PLATFORM_PKGS); \
	done; ls -l dist/

# Both builds of the node: the desktop app (cgo, Fyne) and the headless one
# for servers (every command, no UI, no cgo).
build:
	$(GO) build -o mailnode ./cmd/mailnode
	CGO_ENABLED=0 $(GO) build -tags headless -o mailnode-headless ./cmd/mailnode

# Debian packages the archives' build needs, and no more: a C compiler and
# the X11 and OpenGL headers of the desktop app's cgo build (Fyne), xz for
# the archive, and for the Windows app the mingw-w64 cross compiler (Fyne's
# cgo through it) and zip. Not test-deps: building an archive has no
# reason to install Dovecot, Postfix, Chromium or PostgreSQL.
PACKAGE_PKGS := gcc libgl1-mesa-dev xorg-dev xz-utils gcc-mingw-w64-x86-64 zip
package-deps:
	@command -v gcc >/dev/null 2>&1 && command -v xz >/dev/null 2>&1 && \
	  command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 && command -v zip >/dev/null 2>&1 && \
	  [ -e /usr/include/GL/gl.h ] && [ -e /usr/include/X11/extensions/Xrandr.h ] || { \
	  echo "package-deps: installing with apt-get: a C compiler and the X11/OpenGL headers (the desktop app's cgo build), xz (the archive), mingw-w64 and zip (the Windows app): $(PACKAGE_PKGS)"; \
	  $(APT_GET) update && $(APT_GET) install -y $(PACKAGE_PKGS) >/dev/null; }

# A Linux archive of the desktop app with its .desktop file and icon
# (fyne package reads FyneApp.toml in this directory), to which the relay
# is added: its static binary, its systemd unit and its deployment guide,
# and to the archive's Makefile (Fyne's: `install` puts the desktop app
# only) an install-relay target (cmd/mailnode-relay/install-relay.mk;
# docs/relay-deploy.md says what follows). install-relay is tried into a
# scratch DESTDIR, by `make`, not `$(MAKE)`: make -n runs every line that
# names $(MAKE), and this one rewrites the archive. The archive is listed
# at the end, and a missing part fails the target.
FYNE_TOOLS := fyne.io/tools/cmd/fyne@v1.7.4
RELAY_FILES := mailnode/usr/local/bin/mailnode-relay mailnode/usr/local/lib/systemd/system/mailnode-relay.service \
  mailnode/usr/local/share/doc/mailnode/relay-deploy.md mailnode/usr/local/share/doc/mailnode/relay.md
RELAY_INSTALLED := usr/local/bin/mailnode-relay etc/systemd/system/mailnode-relay.service \
  usr/local/share/doc/mailnode/relay-deploy.md usr/local/share/doc/mailnode/relay.md etc/mailnode-relay
package: package-deps package-windows
	$(GO) build -o mailnode ./cmd/mailnode
	cp FyneApp.toml FyneApp.toml.keep  # fyne package counts builds in it; the count is not ours to commit
	$(GO) run $(FYNE_TOOLS) package --os linux --executable mailnode --name mailnode --icon assets/icon.png --release; \
	  rc=$$?; mv FyneApp.toml.keep FyneApp.toml; exit $$rc
	CGO_ENABLED=0 $(GO) build -trimpath -o mailnode-relay ./cmd/mailnode-relay
	@set -e; dir=$$(mktemp -d); trap 'rm -rf '$$dir EXIT; \
	  tar -xJf mailnode.tar.xz -C $$dir; \
	  install -Dm0755 mailnode-relay $$dir/mailnode/usr/local/bin/mailnode-relay; \
	  install -Dm0644 cmd/mailnode-relay/mailnode-relay.service $$dir/mailnode/usr/local/lib/systemd/system/mailnode-relay.service; \
	  install -Dm0644 -t $$dir/mailnode/usr/local/share/doc/mailnode docs/relay-deploy.md docs/relay.md; \
	  cat cmd/mailnode-relay/install-relay.mk >> $$dir/mailnode/Makefile; \
	  mkdir $$dir/root; make -s -C $$dir/mailnode install-relay DESTDIR=$$dir/root >/dev/null; \
	  for f in $(RELAY_INSTALLED); do [ -e $$dir/root/$$f ] || { echo "package: install-relay did not install /$$f"; exit 1; }; done; \
	  rm -rf $$dir/root; \
	  tar -cJf mailnode.tar.xz.new --owner=0 --group=0 -C $$dir mailnode; \
	  mv mailnode.tar.xz.new mailnode.tar.xz
	@tar -tvJf mailnode.tar.xz | grep -v '/$$'
	@listing=$$(tar -tJf mailnode.tar.xz); for f in mailnode/usr/local/bin/mailnode $(RELAY_FILES); do \
	  grep -qx "$$f" <<<"$$listing" || { echo "package: $$f is not in mailnode.tar.xz"; exit 1; }; done
	@ls -l mailnode.tar.xz

# The Windows desktop app, built here: Fyne's cgo build through mingw-w64
# and fyne package --os windows, which links FyneApp.toml's icon, version
# and name into mailnode.exe as resources (with a manifest) and builds it
# as a GUI program. fyne package reads FyneApp.toml beside the code it
# builds, so a copy goes into cmd/mailnode for the run (and its build
# count with it). The fyne CLI is installed pinned ($(FYNE_TOOLS)) into a
# scratch directory: go run would build it for Windows too. Into
# mailnode-windows-amd64.zip: mailnode\mailnode.exe (README: "Windows").
package-windows: package-deps
	@set -e; dir=$$(mktemp -d); trap 'rm -rf '$$dir' cmd/mailnode/FyneApp.toml cmd/mailnode/fyne.syso cmd/mailnode/fyne_metadata_init.go cmd/mailnode/mailnode.exe' EXIT; \
	  GOBIN=$$dir $(GO) install $(FYNE_TOOLS); \
	  cp FyneApp.toml cmd/mailnode/FyneApp.toml; \
	  (cd cmd/mailnode && CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1 GOOS=windows GOARCH=amd64 \
	    $$dir/fyne package --os windows --name mailnode.exe --icon $(CURDIR)/assets/icon.png --release); \
	  mkdir $$dir/mailnode; mv cmd/mailnode/mailnode.exe $$dir/mailnode/; \
	  rm -f mailnode-windows-amd64.zip; (cd $$dir && zip -qr9 $(CURDIR)/mailnode-windows-amd64.zip mailnode)
	@unzip -l mailnode-windows-amd64.zip | grep -q ' mailnode/mailnode.exe$$' || { echo "package-windows: mailnode.exe is not in mailnode-windows-amd64.zip"; exit 1; }
	@unzip -l mailnode-windows-amd64.zip

# The benchmarks of docs/benchmarks.md. The sync benchmark: 50,000 generated messages in a
# local Dovecot, mailnode against mbsync (Debian isync) in the same run.
bench-deps: test-deps
	@command -v mbsync >/dev/null 2>&1 || { \
	  echo "bench-deps: installing isync with apt-get (mbsync, the sync benchmark's baseline)"; \
	  $(APT_GET) update && \
	  $(APT_GET) install -y isync >/dev/null; }

bench: bench-deps
	MAILNODE_TEST_DOVECOT=1 $(GO) test -count=1 -run '^$$' -bench . -benchtime 1x -timeout 60m ./mail/imapsync/bench/
	$(GO) test -run '^$$' -bench Verify -count 5 ./gateway/httpsig/
	$(GO) test -run '^$$' -bench GatewayThroughput -benchtime 1x ./gateway/
	$(GO) test -run '^$$' -bench PhonePrompts -benchtime 1x ./app/
	$(GO) test -run '^$$' -bench OAuthVsSigned -benchtime 1x ./gateway/
	$(GO) test -run '^$$' -bench OAuthConsent -benchtime 1x ./app/
	$(MAKE) bench-relay
	$(MAKE) bench-desktop

# The desktop app's figures (docs/benchmarks.md): the real binary under Xvfb on a
# 50,000-message Dovecot account: UI stalls during the initial sync, start to tray icon,
# idle RSS and CPU over a minute (about 2 minutes).
bench-desktop: bench-deps
	$(GO) test -run '^$$' -bench Desktop -benchtime 1x -timeout 30m ./app/ui/desktoptest/

# Two builds of the sync alternating on one generated mailbox
# (BenchmarkCompareSync, docs/benchmarks.md): make bench-compare A=<commit>
# [B=<commit>, default the working tree] [MAILNODE_BENCH_SIZES=10000,50000].
bench-compare: bench-deps
	@test -n "$(A)" || { echo "usage: make bench-compare A=<commit> [B=<commit>]"; exit 1; }
	@set -e; dir=$$(mktemp -d); trap 'git worktree remove --force '$$dir'/src >/dev/null 2>&1 || true; rm -rf '$$dir EXIT; \
	  a=$$(git rev-parse --short $(A)); git worktree add -f --detach $$dir/src $$a >/dev/null; \
	  (cd $$dir/src && $(GO) build -o $$dir/mailnode-$$a ./cmd/mailnode); \
	  git worktree remove --force $$dir/src; \
	  if [ -n "$(B)" ]; then b=$$(git rev-parse --short $(B)); git worktree add -f --detach $$dir/src $$b >/dev/null; \
	    (cd $$dir/src && $(GO) build -o $$dir/mailnode-$$b ./cmd/mailnode); git worktree remove --force $$dir/src; \
	  else $(GO) build -o $$dir/mailnode-work ./cmd/mailnode; b=work; fi; \
	  MAILNODE_BENCH_COMPARE="$$dir/mailnode-$$a $$dir/mailnode-$$b" MAILNODE_TEST_DOVECOT=1 \
	    $(GO) test -count=1 -run '^$$' -bench CompareSync -benchtime 1x -timeout 90m ./mail/imapsync/bench/

# Two builds of a relay benchmark alternating, ROUNDS rounds of 5 s each on 2 cores
# (docs/benchmarks.md, resolve against the build before): make bench-compare-relay
# A=<commit> [B=<commit>, default the working tree] [RELAY_BENCH='Resolve$$'] [ROUNDS=7].
# Both builds run the working tree's relay/relayserver/bench_test.go, so that only the
# relay differs; it prints each round and the medians of the builds' throughputs.
RELAY_BENCH ?= Resolve$$
ROUNDS ?= 7
bench-compare-relay:
	@test -n "$(A)" || { echo "usage: make bench-compare-relay A=<commit> [B=<commit>]"; exit 1; }
	@set -e; dir=$$(mktemp -d); trap 'git worktree remove --force '$$dir'/src >/dev/null 2>&1 || true; rm -rf '$$dir EXIT; \
	  bench=$$(pwd)/relay/relayserver/bench_test.go; \
	  build() { git worktree add -q -f --detach $$dir/src $$1 >/dev/null 2>&1; cp $$bench $$dir/src/relay/relayserver/bench_test.go; \
	    (cd $$dir/src && $(GO) test -c -o $$dir/$$2.test ./relay/relayserver/); git worktree remove --force $$dir/src; }; \
	  a=$$(git rev-parse --short $(A)); build $$a a; \
	  if [ -n "$(B)" ]; then b=$$(git rev-parse --short $(B)); build $$b b; else b=work; $(GO) test -c -o $$dir/b.test ./relay/relayserver/; fi; \
	  echo "a = $$a, b = $$b"; \
	  for i in $$(seq $(ROUNDS)); do for v in a b; do \
	    (cd relay/relayserver && MAILNODE_TEST_POSTGRES=1 $$dir/$$v.test -test.run '^$$' -test.bench '$(RELAY_BENCH)' -test.benchtime 5s -test.cpu 2) | \
	      sed -n "s/^\(Benchmark[^ \t]*\)/$$v round $$i \1/p"; \
	  done; done | tee $$dir/rounds; \
	  awk '{for (f = 5; f <= NF; f++) if ($$f ~ /\/s$$/ && $$f != "MB/s") v[$$1" "$$4] = v[$$1" "$$4]" "$$(f-1)} \
	    END {for (k in v) {n = split(substr(v[k], 2), x, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (x[j] + 0 < x[i] + 0) {t = x[i]; x[i] = x[j]; x[j] = t}; \
	      m[k] = (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2; split(k, p, " "); print "median", k, m[k], "over", n, "rounds"; if (p[1] == "b") r[p[2]] = 1} \
	      for (b in r) if (m["a "b] > 0) printf "ratio b/a %s %.2f\n", b, m["b "b] / m["a "b]}' $$dir/rounds

# The relay's figures (docs/benchmarks.md), on 2 cores: resolve throughput, tunnel
# throughput and added latency against direct TLS, 10,000 idle tunnels in a relay process
# of their own, reconnect after a relay restart (about 3 minutes).
bench-relay:
	MAILNODE_TEST_POSTGRES=1 $(GO) test -run '^$$' -bench 'Resolve$$|Enqueue(Postgres)?$$' -benchtime 5s -count 3 -cpu 2 ./relay/relayserver/
	$(GO) test -run '^$$' -bench 'Tunnel(Throughput|Latency)$$|IdleTunnels$$|Reconnect$$' -benchtime 1x -cpu 2 -timeout 20m ./relay/relayserver/
	MAILNODE_TEST_POSTGRES=1 $(GO) test -run '^$$' -bench 'MeshLatency$$' -benchtime 3x -count 3 -cpu 2 ./relay/relayserver/

FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./mail/mime/
	$(GO) test -run '^$$' -fuzz FuzzHTMLToText -fuzztime $(FUZZTIME) ./mail/mime/
	$(GO) test -run '^$$' -fuzz FuzzVerify -fuzztime $(FUZZTIME) ./gateway/httpsig/
	$(GO) test -run '^$$' -fuzz FuzzParseDocument -fuzztime $(FUZZTIME) ./gateway/agentkeys/
	$(GO) test -run '^$$' -fuzz FuzzMCP -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./gateway/
	$(GO) test -run '^$$' -fuzz '^FuzzAuthorize$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./gateway/oauth/
	$(GO) test -run '^$$' -fuzz '^FuzzToken$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./gateway/oauth/
	$(GO) test -run '^$$' -fuzz '^FuzzRegister$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./gateway/oauth/
	$(GO) test -run '^$$' -fuzz FuzzExtract -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./extract/
	$(GO) test -run '^$$' -fuzz FuzzLinkTracking -fuzztime $(FUZZTIME) ./extract/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./extract/bcbp/
	$(GO) test -run '^$$' -fuzz FuzzRead -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./extract/pkpass/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./extract/einvoice/
	$(GO) test -run '^$$' -fuzz FuzzOpen -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./extract/pdfdoc/
	$(GO) test -run '^$$' -fuzz FuzzDecodeBytes -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./extract/barcode/
	$(GO) test -run '^$$' -fuzz FuzzText -fuzztime $(FUZZTIME) ./gateway/redact/
	$(GO) test -run '^$$' -fuzz FuzzAddressed -fuzztime $(FUZZTIME) ./extract/injection/
	$(GO) test -run '^$$' -fuzz FuzzFind -fuzztime $(FUZZTIME) ./extract/answer/
	$(GO) test -run '^$$' -fuzz FuzzValue -fuzztime $(FUZZTIME) ./extract/answer/
	$(GO) test -run '^$$' -fuzz FuzzInstructive -fuzztime $(FUZZTIME) ./extract/injection/
	$(GO) test -run '^$$' -fuzz FuzzParseURL -fuzztime $(FUZZTIME) ./approvals/pairing/
	$(GO) test -run '^$$' -fuzz FuzzPhoneAPI -fuzztime $(FUZZTIME) ./gateway/phone/
	$(GO) test -run '^$$' -fuzz FuzzCheckArguments -fuzztime $(FUZZTIME) ./gateway/tools/
	$(GO) test -run '^$$' -fuzz FuzzVisible -fuzztime $(FUZZTIME) ./gateway/tools/
	$(GO) test -run '^$$' -fuzz FuzzWordIndex -fuzztime $(FUZZTIME) ./extract/injection/
	$(GO) test -run '^$$' -fuzz FuzzPeekClientHello -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzNormalizeAddress -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzResolveBody -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzQueueBody -fuzztime $(FUZZTIME) ./relay/relayserver/
	$(GO) test -run '^$$' -fuzz FuzzServeQueued -fuzztime $(FUZZTIME) ./gateway/
	$(GO) test -run '^$$' -fuzz FuzzSet -fuzztime $(FUZZTIME) ./extract/words/
	$(GO) test -run '^$$' -fuzz FuzzParseTunnelHello -fuzztime $(FUZZTIME) ./relay/
	$(GO) test -run '^$$' -fuzz FuzzParseDocument -fuzztime $(FUZZTIME) ./mail/autoconfig/
	$(GO) test -run '^$$' -fuzz FuzzParseChallenge -fuzztime $(FUZZTIME) ./mail/oauthsasl/
	$(GO) test -run '^$$' -fuzz FuzzParseXOAuth2 -fuzztime $(FUZZTIME) ./mail/oauthsasl/

# KDE KItinerary's extractor (Debian libkpimitinerary-bin), run beside mailnode's on the
# public travel mails.
eval-deps:
	@[ -n "$$(ls /usr/lib/*/libexec/kf*/kitinerary-extractor 2>/dev/null)" ] || { \
	  echo "eval-deps: installing libkpimitinerary-bin with apt-get (KDE KItinerary's extractor, compared with mailnode's)"; \
	  $(APT_GET) update && \
	  $(APT_GET) install -y libkpimitinerary-bin >/dev/null; }

# The extractors' evaluation (docs/benchmarks.md): field-level precision and recall per kind
# on the public travel mails with KItinerary side by side, and on the synthetic orders and
# bills; shuffled replay, redaction of planted secrets. -v lists every miss.
eval: eval-deps
	$(GO) run ./cmd/mailnode-eval

# What attack mails stored beside the demo mailbox make the read tools return
# (app/injectioneval, docs/extract.md "Measuring injection"): the BIPIA corpus
# (copied from ../shared/corpus/injection-bipia) and the styles corpus in
# app/injectioneval/testdata. BIPIA=<dir> reads another BIPIA copy. About 10 seconds.
BIPIA ?= app/injectioneval/testdata/bipia
eval-injection:
	$(GO) run -tags headless ./cmd/mailnode-eval -injection -bipia $(BIPIA)
