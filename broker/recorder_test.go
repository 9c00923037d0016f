package broker

import (
	"net/http"
	"net/http/httptest"
)

func httptestRecorder(h http.Handler, path string) string {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec.Body.String()
}
