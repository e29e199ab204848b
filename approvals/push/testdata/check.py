"""Decrypts one push body the node sent with Python's http-ece (RFC 8188,
RFC 8291): JSON on stdin (the body in base64url, the subscription's private
key and auth secret the test made); prints the text."""
import base64
import json
import sys

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec


def b64(s):
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


req = json.load(sys.stdin)
key = ec.derive_private_key(int.from_bytes(b64(req["ua_private"]), "big"), ec.SECP256R1())
text = http_ece.decrypt(b64(req["body"]), private_key=key, auth_secret=b64(req["auth"]), version="aes128gcm")
sys.stdout.write(text.decode("utf-8"))
