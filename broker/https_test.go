package broker

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/hostname"
)

// testCert is a certificate issued by a CA made in the test.
type testCert struct {
	certFile, keyFile string
	roots             *x509.CertPool // the test CA
	spki              string         // base64 SHA-256 of the leaf's public key (Chromium's --ignore-certificate-errors-spki-list)
	certPEM, keyPEM   []byte
}

// newTestCert makes a CA and a leaf certificate for names, and writes the leaf's chain and
// key as PEM files.
func newTestCert(t testing.TB, names ...string) testCert {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "reachy-broker test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(365 * 24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: names[0]},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(90 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			leaf.IPAddresses = append(leaf.IPAddresses, ip)
		} else {
			leaf.DNSNames = append(leaf.DNSNames, n)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	spkiDER, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	sum := sha256.Sum256(spkiDER)
	tc := testCert{roots: x509.NewCertPool(), spki: base64.StdEncoding.EncodeToString(sum[:])}
	tc.roots.AddCert(caCert)
	tc.certPEM = append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})...)
	tc.keyPEM = pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	dir := t.TempDir()
	tc.certFile, tc.keyFile = filepath.Join(dir, "console.crt"), filepath.Join(dir, "console.key")
	if err := os.WriteFile(tc.certFile, tc.certPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tc.keyFile, tc.keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	return tc
}

const consoleName = "broker.example.ts.net"

// httpsRig is a console rig served twice, as reachy-broker --dev --tls-cert serves it: plain
// HTTP (the rig's own server) and HTTPS with a test CA's certificate for consoleName.
type httpsRig struct {
	*consoleRig
	cert      testCert
	httpPort  string
	httpsPort string
}

func newHTTPSRig(t testing.TB, opts ...option) *httpsRig {
	t.Helper()
	cert := newTestCert(t, consoleName)
	cfg, names, err := LoadCertificate(cert.certFile, cert.keyFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := ListenLoopbackTLS("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	hosts := hostname.Loopback()
	if err := hosts.Add(HostNames(names)...); err != nil {
		t.Fatal(err)
	}
	r := newConsoleRig(t, append([]option{func(c *Config, d *Deps) {
		d.Hosts = hosts
		d.ConsoleHTTPS = ConsoleHTTPS{Port: port, Names: names}
	}}, opts...)...)
	srv := NewHTTPServer(r.b.Handler(), r.cfg.Turn.Budget)
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	_, httpPort, _ := net.SplitHostPort(strings.TrimPrefix(r.srv.URL, "http://"))
	return &httpsRig{consoleRig: r, cert: cert, httpPort: httpPort, httpsPort: strconv.Itoa(port)}
}

// get asks for path at host over scheme, connecting to 127.0.0.1 whatever the host says,
// trusting only the test CA, following no redirect.
func (r *httpsRig) get(t *testing.T, scheme, host, path string, hdr ...string) (int, http.Header, string) {
	t.Helper()
	return r.send(t, "GET", scheme, host, path, nil, hdr...)
}

// send is get with any method and a JSON body.
func (r *httpsRig) send(t *testing.T, method, scheme, host, path string, body []byte, hdr ...string) (int, http.Header, string) {
	t.Helper()
	port := r.httpPort
	if scheme == "https" {
		port = r.httpsPort
	}
	c := &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: &http.Transport{
			TLSClientConfig: &tls.Config{RootCAs: r.cert.roots, ServerName: consoleName},
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+port)
			},
		}}
	req, err := http.NewRequest(method, scheme+"://"+host+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s%s: %v", scheme, host, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestConsoleHTTPSRedirectsAndOwnNames (#28.1): with a certificate of its own the broker
// serves the console over HTTPS at the certificate's name; the console over plain HTTP at
// that name is redirected there (path and query kept), while the robots' API on the same
// port is not; a loopback address is served as it is (a secure context already); and a
// Host that is neither the certificate's nor a loopback name is refused with 421
// unknown_host on both listeners — before any route runs.
func TestConsoleHTTPSRedirectsAndOwnNames(t *testing.T) {
	r := newHTTPSRig(t)
	httpHost := consoleName + ":" + r.httpPort
	httpsURL := "https://" + consoleName + ":" + r.httpsPort

	for _, path := range []string{"/", "/console/app.js", "/console/api/state?x=1"} {
		status, h, _ := r.get(t, "http", httpHost, path)
		if status != http.StatusTemporaryRedirect || h.Get("Location") != httpsURL+path {
			t.Errorf("plain HTTP %s at %s: %d, Location %q; want a redirect to %s", path, consoleName, status, h.Get("Location"), httpsURL+path)
		}
	}
	if status, _, body := r.get(t, "http", httpHost, "/v1/intents"); status != http.StatusUnauthorized {
		t.Errorf("the robots' API over plain HTTP must not move: %d %s", status, body)
	}
	if status, _, body := r.get(t, "http", "127.0.0.1:"+r.httpPort, "/"); status != http.StatusOK || !strings.Contains(body, "console-token") {
		t.Errorf("the console on a loopback address over plain HTTP: %d", status)
	}

	status, _, body := r.get(t, "https", consoleName+":"+r.httpsPort, "/")
	if status != http.StatusOK || !strings.Contains(body, "console-token") || !strings.Contains(body, "/console/secure.js") {
		t.Fatalf("the console over HTTPS: %d %.200s", status, body)
	}
	if status, _, body := r.get(t, "https", consoleName+":"+r.httpsPort, "/console/api/state", "X-Console-Token", pageToken(t, body)); status != http.StatusOK {
		t.Errorf("the console's calls over HTTPS: %d %s", status, body)
	}

	for _, host := range []string{"evil.example.net", "other.example.ts.net", "broker.example.ts.net.evil.net"} {
		for _, scheme := range []string{"http", "https"} {
			port := r.httpPort
			if scheme == "https" {
				port = r.httpsPort
			}
			status, _, body := r.get(t, scheme, host+":"+port, "/")
			if status != http.StatusMisdirectedRequest || !strings.Contains(body, "unknown_host") {
				t.Errorf("%s with Host %s: %d %s; want 421 unknown_host", scheme, host, status, body)
			}
		}
	}
}

// TestLoadCertificateRefusesWhatBrowsersRefuse: a key that is not the certificate's, or no
// key, is refused at start with the file named; a good one gives its DNS names and addresses.
func TestLoadCertificateRefusesWhatBrowsersRefuse(t *testing.T) {
	good := newTestCert(t, consoleName, "100.64.0.9")
	_, names, err := LoadCertificate(good.certFile, good.keyFile, nil)
	if err != nil || strings.Join(names, ",") != consoleName+",100.64.0.9" {
		t.Fatalf("a good certificate: %v %v", names, err)
	}
	other := newTestCert(t, consoleName)
	if _, _, err := LoadCertificate(good.certFile, other.keyFile, nil); err == nil || !strings.Contains(err.Error(), good.certFile) {
		t.Errorf("a key of another certificate: %v", err)
	}
	if _, _, err := LoadCertificate(good.certFile, "", nil); err == nil {
		t.Error("a certificate without its key was accepted")
	}
}

// TestHTTPSName: where a plain-HTTP console request is sent.
func TestHTTPSName(t *testing.T) {
	names := []string{"broker.tail1.ts.net", "*.example.net"}
	for host, want := range map[string]string{
		"broker.tail1.ts.net:8092": "broker.tail1.ts.net",
		"BROKER.tail1.ts.net.":     "broker.tail1.ts.net",
		"broker:8092":              "broker.tail1.ts.net", // the short MagicDNS name: the certificate's
		"100.64.0.9:8092":          "broker.tail1.ts.net", // an address: the certificate's name
		"console.example.net":      "console.example.net", // covered by the wildcard
		"127.0.0.1:8092":           "",                    // loopback: served as it is
		"localhost":                "",
	} {
		h, err := hostname.Parse(host)
		if err != nil {
			t.Fatal(err)
		}
		if got := httpsName(names, h); got != want {
			t.Errorf("%s → %q, want %q", host, got, want)
		}
	}
}

// TestARenewedCertificateIsServedWithoutARestart: an operator's certificate renewed in place
// (certbot, a cron job) is what the next connection gets; a renewal caught half written (the
// new certificate beside the old key) leaves the previous certificate serving, says so in the
// log, and the pair is taken as soon as the key is written too.
func TestARenewedCertificateIsServedWithoutARestart(t *testing.T) {
	first := newTestCert(t, consoleName)
	logs := &syncBuffer{}
	cfg, _, err := LoadCertificate(first.certFile, first.keyFile, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	l, err := ListenLoopbackTLS("127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	served := func() []byte {
		t.Helper()
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", l.Addr().String(),
			&tls.Config{ServerName: consoleName, InsecureSkipVerify: true})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		return conn.ConnectionState().PeerCertificates[0].Raw
	}
	leaf := func(c testCert) []byte {
		b, _ := pem.Decode(c.certPEM)
		return b.Bytes
	}
	if !bytes.Equal(served(), leaf(first)) {
		t.Fatal("the configured certificate is not served")
	}

	renewed := newTestCert(t, consoleName)
	// Half written: the new certificate, the old key.
	if err := os.WriteFile(first.certFile, renewed.certPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served(), leaf(first)) {
		t.Fatal("a half-written renewal replaced the certificate that works")
	}
	if !strings.Contains(logs.String(), "does not load") {
		t.Fatalf("a renewal that does not load was not logged:\n%s", logs.String())
	}
	if err := os.WriteFile(first.keyFile, renewed.keyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served(), leaf(renewed)) {
		t.Fatal("the renewed certificate is not served without a restart")
	}
	if n := strings.Count(logs.String(), "does not load"); n != 1 {
		t.Fatalf("the half-written renewal was logged %d times:\n%s", n, logs.String())
	}
}

// pageToken is the page token in a console page.
func pageToken(t *testing.T, page string) string {
	t.Helper()
	m := tokenMeta.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no page token in %.200s", page)
	}
	return m[1]
}
