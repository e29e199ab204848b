package phone_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzPhoneAPI sends arbitrary device headers, paths and bodies to the
// phone API. Nothing may panic, and nothing without a paired device's
// signature may get a 200 from the signed routes.
func FuzzPhoneAPI(f *testing.F) {
	n := newNode(f)
	h := n.srv.Config.Handler
	f.Add("/phone/api/decide", "ph_x.1800000000.aaaaaaaaaaaaaaaaaaaa.sig", []byte(`{"approval_id":"apr_x","decision":"approve","prompt_hash":"","signature":""}`))
	f.Add("/phone/pair", "", []byte(`{"offer":"x","sign_pub":"","box_pub":"","name":"n","mac":""}`))
	f.Add("/phone/api/state", "...", []byte(nil))
	f.Add("/phone/api/events", "a.b.c.d", []byte(`{}`))
	f.Fuzz(func(t *testing.T, path, header string, body []byte) {
		if len(path) == 0 || path[0] != '/' {
			path = "/phone/api/" + path
		}
		req, err := http.NewRequest(http.MethodPost, "https://node.example"+path, bytes.NewReader(body))
		if err != nil {
			return
		}
		req.Header.Set("Mailnode-Device", header)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code == http.StatusOK && len(req.URL.Path) > len("/phone/api/") && req.URL.Path[:len("/phone/api/")] == "/phone/api/" {
			t.Fatalf("%s with header %q answered 200: %s", path, header, w.Body)
		}
	})
}
