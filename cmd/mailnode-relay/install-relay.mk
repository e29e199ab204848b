
# Added by mailnode's `make package`: the relay, for a server (docs/relay-deploy.md, in
# usr/local/share/doc/mailnode here). `install` above installs the desktop app only.
#   sudo make install-relay
# installs the relay's binary and guides under /usr/local, makes /etc/mailnode-relay for its
# secrets, and its systemd unit as /etc/systemd/system/mailnode-relay.service unless one is
# there (yours, edited: never overwritten). It starts nothing: edit the unit's ExecStart, put
# the submission password in /etc/mailnode-relay/smtp-password (0600), then
#   systemctl daemon-reload && systemctl enable --now mailnode-relay
RELAY_UNIT := $(DESTDIR)/etc/systemd/system/mailnode-relay.service
install-relay:
	install -Dm00755 usr/local/bin/mailnode-relay $(DESTDIR)/usr/local/bin/mailnode-relay
	install -Dm00644 -t $(DESTDIR)/usr/local/share/doc/mailnode usr/local/share/doc/mailnode/relay-deploy.md usr/local/share/doc/mailnode/relay.md
	install -d -m 00755 $(DESTDIR)/etc/mailnode-relay
	@if [ -e $(RELAY_UNIT) ]; then echo "install-relay: $(RELAY_UNIT) exists and is kept; the unit of this archive is usr/local/lib/systemd/system/mailnode-relay.service"; \
	else install -Dm00644 usr/local/lib/systemd/system/mailnode-relay.service $(RELAY_UNIT) && \
	  echo "install-relay: edit ExecStart in $(RELAY_UNIT) (zone, --public-ip, --acme-email, submission server, login, sender), then: systemctl daemon-reload && systemctl enable --now mailnode-relay"; fi
uninstall-relay:
	-rm $(DESTDIR)/usr/local/bin/mailnode-relay $(DESTDIR)/usr/local/share/doc/mailnode/relay-deploy.md $(DESTDIR)/usr/local/share/doc/mailnode/relay.md
	@echo "uninstall-relay: $(RELAY_UNIT), /etc/mailnode-relay and the relay's data (/var/lib/mailnode-relay) are left: stop and disable the service first"
