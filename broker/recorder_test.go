package broker

import (
	"net/http"
	"net/http/httptest"
)

func httptestRecorder(h http.Handler, path string) string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1"+path, nil)) // a loopback name: the broker answers no other
	return rec.Body.String()
}
