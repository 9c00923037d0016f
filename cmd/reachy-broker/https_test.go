package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for name and its key, and returns their files
// and a pool that trusts it.
func selfSigned(t *testing.T, name string) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalECPrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	roots = x509.NewCertPool()
	roots.AddCert(cert)
	return certFile, keyFile, roots
}

var httpsURLRE = regexp.MustCompile(`the teleport console over HTTPS.*url=(https://\S+)`)

// TestDevBrokerServesItsOwnCertificate (#28.1): `reachy-broker --dev --tls-cert F --tls-key K
// --https-listen ADDR` serves the console over HTTPS with that certificate, answers to its
// name, sends the console over plain HTTP at that name there, and refuses a Host that is
// neither its certificate's nor a loopback name (421). A certificate without its key is a
// usage error.
func TestDevBrokerServesItsOwnCertificate(t *testing.T) {
	const name = "broker.example.ts.net"
	certFile, keyFile, roots := selfSigned(t, name)
	p := startBrokerProcess(t, "--dev", "--listen", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--state-dir", filepath.Join(t.TempDir(), "state"),
		"--dev-owner", "dad@example.com", "--tls-cert", certFile, "--tls-key", keyFile, "--https-listen", "127.0.0.1:0")
	m := httpsURLRE.FindStringSubmatch(p.log.String())
	if m == nil || !strings.HasPrefix(m[1], "https://"+name+":") {
		t.Fatalf("the broker does not say where the console is over HTTPS:\n%s", p.log)
	}
	httpsURL := m[1]
	httpsPort := strings.TrimSuffix(strings.TrimPrefix(httpsURL, "https://"+name+":"), "/")
	_, apiPort, _ := net.SplitHostPort(p.api)

	get := func(rawURL, port string) (int, string, string) {
		t.Helper()
		c := &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: name},
				DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
					return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+port)
				}}}
		resp, err := c.Get(rawURL)
		if err != nil {
			t.Fatalf("GET %s: %v", rawURL, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}
	if status, _, body := get(httpsURL, httpsPort); status != http.StatusOK || !strings.Contains(body, "dad") {
		t.Errorf("the console over HTTPS: %d %.200s", status, body)
	}
	if status, loc, _ := get("http://"+name+":"+apiPort+"/", apiPort); status != http.StatusTemporaryRedirect || loc != httpsURL {
		t.Errorf("the console over plain HTTP at %s: %d → %q, want %s", name, status, loc, httpsURL)
	}
	if status, _, body := get("https://evil.example.net:"+httpsPort+"/", httpsPort); status != http.StatusMisdirectedRequest || !strings.Contains(body, "unknown_host") {
		t.Errorf("another Host over HTTPS: %d %s", status, body)
	}
	p.stop(t)

	if code, out := runBrokerToEnd(t, "--dev", "--tls-cert", certFile); code != 2 || !strings.Contains(out, "--tls-cert and --tls-key go together") {
		t.Errorf("--tls-cert without --tls-key: exit %d:\n%s", code, out)
	}
}
