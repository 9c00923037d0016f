package broker

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/hostname"
)

// HTTPSPort is where the console is served over TLS on the tailnet.
const HTTPSPort = 443

// HTTPSOffTailnet is ConsoleHTTPS.Off when the tailnet has HTTPS certificates turned off:
// the console is served over plain HTTP, where a browser gives the page no microphone.
const HTTPSOffTailnet = "tailnet-certs-off"

// ErrTailnetHTTPSOff is what Tailnet.HTTPS returns when the tailnet gives this node no
// certificate names (MagicDNS or HTTPS certificates turned off in the admin console).
var ErrTailnetHTTPSOff = errors.New("this tailnet has HTTPS certificates turned off: turn on MagicDNS and HTTPS Certificates in the Tailscale admin console (DNS page), then restart the broker")

// ConsoleHTTPS says where the console is served over TLS, or why it is not. A browser gives
// a page its microphone only in a secure context: https, or a loopback address.
type ConsoleHTTPS struct {
	// Port is the TLS listener's port; 0: the console is served over plain HTTP only.
	Port int
	// Names are the certificate's names: a console request over plain HTTP is redirected
	// to the one it named, or to the first when it named another of the broker's names (an
	// address, the short MagicDNS name) the certificate does not cover.
	Names []string
	// Off says why the console is not on TLS (HTTPSOffTailnet); the page explains it.
	Off string
}

// LoadCertificate reads an operator's own certificate and key (PEM: the certificate chain,
// leaf first, and its private key) and returns a TLS configuration serving it and the
// names it holds (its DNS names and IP addresses), which the broker then answers to.
//
// A renewed certificate is picked up without a restart: each handshake looks at the two
// files (modification time and size) and, when they changed, loads the pair again. A pair
// that does not load (a renewal half written, a key of another certificate, an expired
// certificate) leaves the previous one serving, logged once per change of the files.
func LoadCertificate(certFile, keyFile string, log *slog.Logger) (*tls.Config, []string, error) {
	if certFile == "" || keyFile == "" {
		return nil, nil, errors.New("tls: a certificate needs both its certificate file and its key file")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	stamp := fileStamp(certFile, keyFile)
	pair, names, err := readCertificate(certFile, keyFile)
	if err != nil {
		return nil, nil, err
	}
	own := &ownCertificate{certFile: certFile, keyFile: keyFile, log: log, cur: pair, names: names, tried: stamp}
	return serverTLS(&tls.Config{GetCertificate: own.get}), names, nil
}

// readCertificate loads and checks a certificate pair as browsers will.
func readCertificate(certFile, keyFile string) (*tls.Certificate, []string, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, nil, fmt.Errorf("tls certificate %s, key %s: %w", certFile, keyFile, err)
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		return nil, nil, fmt.Errorf("tls certificate %s: %w", certFile, err)
	}
	pair.Leaf = leaf
	names := append([]string(nil), leaf.DNSNames...)
	for _, ip := range leaf.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("tls certificate %s names no host (no subject alternative name): browsers refuse it", certFile)
	}
	for _, n := range names {
		if _, err := hostname.Fixed(strings.TrimPrefix(n, "*.")); err != nil {
			return nil, nil, fmt.Errorf("tls certificate %s: %w", certFile, err)
		}
	}
	if time.Now().After(leaf.NotAfter) {
		return nil, nil, fmt.Errorf("tls certificate %s expired on %s", certFile, leaf.NotAfter.UTC().Format(time.DateOnly))
	}
	return &pair, names, nil
}

// ownCertificate serves the operator's certificate and follows its renewals.
type ownCertificate struct {
	certFile, keyFile string
	log               *slog.Logger

	mu    sync.Mutex
	cur   *tls.Certificate
	names []string
	tried string // the files as last read, loaded or not: a pair is read (and a bad one logged) once
}

// fileStamp names the state of the two files; "" when one cannot be read.
func fileStamp(files ...string) string {
	var b strings.Builder
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return ""
		}
		fmt.Fprintf(&b, "%d/%d;", fi.ModTime().UnixNano(), fi.Size())
	}
	return b.String()
}

func (o *ownCertificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	stamp := fileStamp(o.certFile, o.keyFile)
	o.mu.Lock()
	defer o.mu.Unlock()
	if stamp == "" || stamp == o.tried {
		return o.cur, nil
	}
	o.tried = stamp
	pair, names, err := readCertificate(o.certFile, o.keyFile)
	if err != nil {
		o.log.Error("the renewed console certificate does not load; still serving the previous one", "err", err,
			"previous_expires", o.cur.Leaf.NotAfter.UTC().Format(time.DateOnly))
		return o.cur, nil
	}
	if strings.Join(names, ",") != strings.Join(o.names, ",") {
		o.log.Warn("the renewed console certificate names other hosts; the broker answers to the names it started with until it is restarted",
			"names", names, "answering_to", o.names)
	}
	o.cur = pair
	o.log.Info("console certificate renewed", "file", o.certFile, "expires", pair.Leaf.NotAfter.UTC().Format(time.DateOnly))
	return o.cur, nil
}

// serverTLS completes a listener's configuration: HTTP/2 and HTTP/1.1, TLS 1.2 at least.
func serverTLS(c *tls.Config) *tls.Config {
	c.MinVersion = tls.VersionTLS12
	c.NextProtos = []string{"h2", "http/1.1"}
	return c
}

// HostNames are the names of a certificate the Set answers to: a wildcard ("*.example.net")
// is not a Host a request can name, so only the exact names are added.
func HostNames(names []string) []string {
	var out []string
	for _, n := range names {
		if !strings.HasPrefix(n, "*.") {
			out = append(out, n)
		}
	}
	return out
}

// HTTPS is the node's own certificate for its MagicDNS name, issued through the tailnet (the
// local client's GetCertificate; the first one is fetched now, in the background, so the
// first page load does not wait for it), and the names it covers. It returns
// ErrTailnetHTTPSOff when the tailnet has HTTPS certificates turned off.
func (t *Tailnet) HTTPS(ctx context.Context, logf func(msg string, args ...any)) (*tls.Config, []string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	st, err := t.client.StatusWithoutPeers(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("tailnet status: %w", err)
	}
	if len(st.CertDomains) == 0 || (st.CurrentTailnet != nil && !st.CurrentTailnet.MagicDNSEnabled) {
		return nil, nil, ErrTailnetHTTPSOff
	}
	names := append([]string(nil), st.CertDomains...)
	first := strings.TrimPrefix(names[0], "*.")
	getCert := func(hi *tls.ClientHelloInfo) (*tls.Certificate, error) {
		if hi.ServerName == "" { // a client that named an address sends no name
			c := *hi
			c.ServerName = first
			hi = &c
		}
		return t.client.GetCertificate(hi)
	}
	go func() {
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, _, err := t.client.CertPair(cctx, first); err != nil && logf != nil {
			logf("the tailnet's HTTPS certificate could not be fetched yet; the console's first HTTPS visit asks again",
				"name", first, "err", err)
		}
	}()
	return serverTLS(&tls.Config{GetCertificate: getCert}), names, nil
}

// ListenTLS opens a TLS listener on the tailnet only.
func (t *Tailnet) ListenTLS(port int, c *tls.Config) (net.Listener, error) {
	l, err := t.Listen(port)
	if err != nil {
		return nil, err
	}
	return tls.NewListener(l, c), nil
}

// ListenLoopbackTLS opens a TLS listener that is refused unless addr is a loopback address.
func ListenLoopbackTLS(addr string, c *tls.Config) (net.Listener, error) {
	l, err := ListenLoopback(addr)
	if err != nil {
		return nil, err
	}
	return tls.NewListener(l, c), nil
}

// ConsoleListener opens the console's TLS listener on the tailnet, on port: with the
// operator's own certificate when one is given (own, and the names it holds), else with the
// node's own Tailscale certificate for its MagicDNS name. When the tailnet has HTTPS
// certificates turned off it says so in one log line and returns no listener, with Off set:
// the console stays on plain HTTP and its page explains why the microphone is unavailable.
func (t *Tailnet) ConsoleListener(ctx context.Context, port int, own *tls.Config, ownNames []string, log *slog.Logger) (net.Listener, ConsoleHTTPS, error) {
	c, names := own, ownNames
	if c == nil {
		var err error
		c, names, err = t.HTTPS(ctx, log.Warn)
		if errors.Is(err, ErrTailnetHTTPSOff) {
			log.Warn("HTTPS is off: this tailnet has HTTPS certificates turned off, so the console is served over plain HTTP, " +
				"where browsers give the page no microphone (push-to-talk). Turn on MagicDNS and HTTPS Certificates in the " +
				"Tailscale admin console (DNS page) and restart the broker, or serve a certificate of your own with --tls-cert and --tls-key.")
			return nil, ConsoleHTTPS{Off: HTTPSOffTailnet}, nil
		}
		if err != nil {
			return nil, ConsoleHTTPS{}, err
		}
	}
	l, err := t.ListenTLS(port, c)
	if err != nil {
		return nil, ConsoleHTTPS{}, fmt.Errorf("console over HTTPS, tailnet port %d: %w", port, err)
	}
	return l, ConsoleHTTPS{Port: port, Names: names}, nil
}

// isConsolePath reports whether a path is the console's: its page, assets and calls.
func isConsolePath(p string) bool { return p == "/" || strings.HasPrefix(p, "/console/") }

// consoleOverHTTPS answers a console request that came over plain HTTP with a redirect to
// the console's HTTPS address, and reports whether it did. The robots' API and MCP stay
// where they are (they carry bearer tokens, and a client never follows a redirect with one).
// A loopback host the certificate does not name is served as it is: a browser treats a
// loopback page as a secure context, and the certificate's name may not resolve there.
func (b *Broker) consoleOverHTTPS(w http.ResponseWriter, r *http.Request) bool {
	h := b.d.ConsoleHTTPS
	if h.Port == 0 || r.TLS != nil || !isConsolePath(r.URL.Path) {
		return false
	}
	host, err := hostname.Parse(r.Host)
	if err != nil {
		return false
	}
	name := httpsName(h.Names, host)
	if name == "" {
		return false
	}
	if h.Port != HTTPSPort {
		name = net.JoinHostPort(name, strconv.Itoa(h.Port))
	} else if strings.Contains(name, ":") {
		name = "[" + name + "]"
	}
	w.Header().Set("Cache-Control", "no-store") // HTTPS may be turned off again
	http.Redirect(w, r, "https://"+name+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	return true
}

// httpsName is the certificate name a request for host is sent to: host itself when the
// certificate covers it; "" for a loopback host it does not cover; else its first exact name.
func httpsName(names []string, host hostname.Host) string {
	want := host.Name
	if host.IP.IsValid() {
		want = host.IP.String()
	}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSuffix(n, "."))
		if n == want {
			return want
		}
		if rest, ok := strings.CutPrefix(n, "*."); ok && host.Name != "" {
			if _, parent, found := strings.Cut(host.Name, "."); found && parent == rest {
				return want
			}
		}
	}
	if host.Name == "localhost" || host.IP.IsLoopback() {
		return ""
	}
	for _, n := range names {
		if !strings.HasPrefix(n, "*.") {
			return strings.ToLower(strings.TrimSuffix(n, "."))
		}
	}
	return ""
}
