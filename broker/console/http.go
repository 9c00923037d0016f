package console

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/broker/hostname"
)

//go:embed assets
var assets embed.FS

var pageTmpl = template.Must(template.ParseFS(assets, "assets/page.html", "assets/denied.html"))

// csp allows nothing but this origin's own script, style, clips and calls.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self' blob:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Permissions-Policy", "microphone=(self), camera=(), geolocation=()")
		if r.TLS != nil {
			// Over HTTPS the browser is told to come back only over HTTPS to this name. A day,
			// not a year: a tailnet whose owner turns HTTPS certificates off again gets its
			// plain-HTTP console back the next day rather than being locked out for months.
			h.Set("Strict-Transport-Security", hstsValue)
		}
		next.ServeHTTP(w, r)
	})
}

// hstsValue is the console's Strict-Transport-Security over HTTPS (see securityHeaders).
const hstsValue = "max-age=86400"

type personKey struct{}

// personOf is the request's person; behind withPage, Page names the page that asked.
func personOf(r *http.Request) Person { return r.Context().Value(personKey{}).(Person) }

// person reads like the rule: the connection's tailnet identity → a person (not a tagged
// machine) → one of the owners; anyone else gets a page saying who they are and why not.
func (c *Console) person(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := c.d.Identify(r.Context(), r.RemoteAddr)
		if errors.Is(err, ErrNoDevOwner) {
			c.denyNoOwner(w, r)
			return
		}
		if err != nil {
			c.log.Warn("console: whois failed", "err", err)
			c.deny(w, r, Person{}, "This connection could not be identified on the tailnet.")
			return
		}
		if p.Tagged() {
			c.deny(w, r, p, "This connection comes from a tagged node ("+strings.Join(p.Tags, ", ")+"): a machine, not a person. The console is for people.")
			return
		}
		if !c.isOwner(p.Login) {
			c.deny(w, r, p, "This console is only for the home's owners (teleport.owners in the broker's config), and "+p.Login+" is not one of them.")
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), personKey{}, p)))
	}
}

// denyNoOwner answers a loopback dev broker started without an owner: it says how to start
// one with an owner, not to ask the home's owner (the person reading it is the owner).
func (c *Console) denyNoOwner(w http.ResponseWriter, r *http.Request) {
	why := "This broker runs in dev mode on loopback, not on a tailnet, so it cannot tell who you are, and it was started without an owner for its console."
	if strings.HasPrefix(r.URL.Path, "/console/api/") {
		writeErr(w, &consoleError{status: http.StatusForbidden, code: api.CodeNotOwner, msg: why + " Restart it with --dev-owner LOGIN."})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	pageTmpl.ExecuteTemplate(w, "denied.html", map[string]string{"Title": "No owner for this dev console", "Why": why, "DevOwner": "yes"})
}

func (c *Console) deny(w http.ResponseWriter, r *http.Request, p Person, why string) {
	if strings.HasPrefix(r.URL.Path, "/console/api/") {
		writeErr(w, &consoleError{status: http.StatusForbidden, code: api.CodeNotOwner, msg: why})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	pageTmpl.ExecuteTemplate(w, "denied.html", map[string]string{"Login": p.Login, "Node": p.Node, "Why": why})
}

// Page tokens are issued with each page load and must come back with every state-changing
// call: a cross-site page cannot read one, so it cannot forge one. They are stateless — a
// random nonce, an expiry and an HMAC over both and the owner's login, under a key the
// console draws at start — so a page load stores nothing, a check costs the same whatever
// number of pages were loaded, and a token dies with its expiry or the broker's restart.
const (
	pageTokenTTL   = 12 * time.Hour
	pageNonceBytes = 16
	pageTokenBytes = 8 + pageNonceBytes + sha256.Size // expiry, nonce, MAC
)

func newPageKey() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}

func (c *Console) pageMAC(login string, expiryAndNonce []byte) []byte {
	m := hmac.New(sha256.New, c.pageKey)
	m.Write([]byte("reachy-broker console page token\x00"))
	m.Write([]byte(strings.ToLower(login)))
	m.Write([]byte{0})
	m.Write(expiryAndNonce)
	return m.Sum(nil)
}

func (c *Console) issueToken(login string) string {
	b := make([]byte, 8+pageNonceBytes, pageTokenBytes)
	binary.BigEndian.PutUint64(b, uint64(c.d.Now().Add(pageTokenTTL).Unix()))
	rand.Read(b[8:])
	return base64.RawURLEncoding.EncodeToString(append(b, c.pageMAC(login, b)...))
}

// tokenPage checks a page token of login and returns the page it names (its nonce).
func (c *Console) tokenPage(tok, login string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) != pageTokenBytes {
		return "", false
	}
	body, mac := b[:8+pageNonceBytes], b[8+pageNonceBytes:]
	if !hmac.Equal(mac, c.pageMAC(login, body)) {
		return "", false
	}
	expires := time.Unix(int64(binary.BigEndian.Uint64(body)), 0)
	now := c.d.Now()
	if !now.Before(expires) || expires.Sub(now) > pageTokenTTL+time.Second {
		return "", false
	}
	return hex.EncodeToString(body[8:]), true
}

// sameOrigin refuses a state-changing request that a browser says came from another site,
// or whose Origin is not this origin — scheme, host and port — then hands it to withPage
// (this owner's page token).
func (c *Console) sameOrigin(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		refuse := func(why string) {
			c.log.Warn("console: cross-origin request refused", "why", why, "path", r.URL.Path)
			writeErr(w, &consoleError{status: http.StatusForbidden, code: api.CodeCrossOrigin, msg: why})
		}
		if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
			refuse("this request came from another site")
			return
		}
		origin := r.Header.Get("Origin")
		if origin == "" {
			refuse("a state-changing request must carry its Origin")
			return
		}
		if !sameOriginAs(origin, r) {
			refuse("this request came from another origin")
			return
		}
		c.withPage(next)(w, r)
	}
}

// withPage refuses a console API request without this owner's page token (every API call
// carries it: a cross-site page cannot read one, so it cannot forge one) or that a browser
// says came from another site. What passes goes on with the page it names (Person.Page),
// and counts as that page's heartbeat: a session lives only as long as the page that
// joined it keeps asking (PageTimeout).
func (c *Console) withPage(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		refuse := func(why string) {
			c.log.Warn("console: request without a valid page token refused", "why", why, "path", r.URL.Path)
			writeErr(w, &consoleError{status: http.StatusForbidden, code: api.CodeCrossOrigin, msg: why})
		}
		if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
			refuse("this request came from another site")
			return
		}
		p := personOf(r)
		page, ok := c.tokenPage(r.Header.Get("X-Console-Token"), p.Login)
		if !ok {
			refuse("the page token is missing or stale; reload the page")
			return
		}
		p.Page = page
		c.pageSeen(p)
		next(w, r.WithContext(context.WithValue(r.Context(), personKey{}, p)))
	}
}

// servePageToken gives an open page a new token after the broker restarted (its old one was
// signed with the old key): the page can go on — and call again — without a reload. Like the
// page itself it is readable only by this origin: the answer carries no CORS header, and a
// browser that says the request came from another site is refused.
func (c *Console) servePageToken(w http.ResponseWriter, r *http.Request) {
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
		writeErr(w, &consoleError{status: http.StatusForbidden, code: api.CodeCrossOrigin, msg: "this request came from another site"})
		return
	}
	writeJSON(w, map[string]string{"token": c.issueToken(personOf(r).Login), "boot": c.boot})
}

// sameOriginAs reports whether an Origin header names the origin r came to: the same scheme
// (https when r came over TLS), host (canonical form: case, a trailing dot) and port (a
// default port written or not).
func sameOriginAs(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Path != "" || u.User != nil {
		return false
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if u.Scheme != scheme {
		return false
	}
	o, err := hostname.Parse(u.Host)
	if err != nil {
		return false
	}
	h, err := hostname.Parse(r.Host)
	if err != nil {
		return false
	}
	def := map[string]string{"http": "80", "https": "443"}[scheme]
	for _, x := range []*hostname.Host{&o, &h} {
		if x.Port == "" {
			x.Port = def
		}
	}
	return o == h
}

func (c *Console) servePage(w http.ResponseWriter, r *http.Request) {
	p := personOf(r)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	pageTmpl.ExecuteTemplate(w, "page.html", map[string]string{"Token": c.issueToken(p.Login), "Boot": c.boot, "Login": p.Login, "Display": displayName(p), "HTTPSOff": c.d.HTTPSOff})
}

func serveAsset(name, ctype string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Write(b)
	}
}

// consoleError is a console call's failure: a status and a closed code.
type consoleError struct {
	status int
	code   string
	msg    string
}

func (e *consoleError) Error() string { return e.code + ": " + e.msg }

func writeErr(w http.ResponseWriter, err error) {
	var ce *consoleError
	if !errors.As(err, &ce) {
		ce = &consoleError{status: http.StatusInternalServerError, code: api.CodeInternal, msg: "something went wrong"}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ce.status)
	json.NewEncoder(w).Encode(api.ErrorBody{Error: api.ErrorDetail{Code: ce.code, Message: ce.msg}})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// displayName is the name the robot announces: the tailnet display name, or the login's
// part before the @.
func displayName(p Person) string {
	if p.Display != "" {
		return p.Display
	}
	name, _, _ := strings.Cut(p.Login, "@")
	return name
}
