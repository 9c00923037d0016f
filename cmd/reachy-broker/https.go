package main

import (
	"context"
	"crypto/tls"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/broker/hostname"
)

// tlsFlags are the console's HTTPS flags; they override listen.tls in the config.
type tlsFlags struct {
	cert, key, listen *string
}

func addTLSFlags(fs *flag.FlagSet) tlsFlags {
	return tlsFlags{
		cert:   fs.String("tls-cert", "", "serve the console over HTTPS with this certificate (PEM chain) instead of the tailnet's own; also in --dev (listen.tls.cert_file)"),
		key:    fs.String("tls-key", "", "the private key of --tls-cert (PEM) (listen.tls.key_file)"),
		listen: fs.String("https-listen", "", "dev mode: loopback address of the console over HTTPS when a certificate is given (default listen.tls.loopback, 127.0.0.1:8443; port 0: any free port)"),
	}
}

// apply writes the flags that were given over the config's keys.
func (f tlsFlags) apply(cfg *broker.Config) error {
	if (*f.cert == "") != (*f.key == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together")
	}
	if *f.cert != "" {
		cfg.Listen.TLS.CertFile, cfg.Listen.TLS.KeyFile = *f.cert, *f.key
	}
	if *f.listen != "" {
		if _, err := broker.ListenLoopbackCheck(*f.listen); err != nil {
			return fmt.Errorf("--https-listen %s: %w", *f.listen, err)
		}
		cfg.Listen.TLS.Loopback = *f.listen
	}
	return nil
}

// consoleTLS is the operator's own certificate, when one is configured.
type consoleTLS struct {
	own   *tls.Config
	names []string
}

func loadConsoleTLS(cfg *broker.Config, log *slog.Logger) (consoleTLS, error) {
	if cfg.Listen.TLS.CertFile == "" {
		return consoleTLS{}, nil
	}
	c, names, err := broker.LoadCertificate(cfg.Listen.TLS.CertFile, cfg.Listen.TLS.KeyFile, log)
	return consoleTLS{own: c, names: names}, err
}

// listenLoopback opens dev mode's HTTPS listener when a certificate is given (none: dev mode
// is plain HTTP on loopback, which browsers treat as secure), and makes the broker answer to
// the certificate's names.
func (c consoleTLS) listenLoopback(cfg *broker.Config, deps *broker.Deps) (net.Listener, error) {
	if c.own == nil {
		return nil, nil
	}
	l, err := broker.ListenLoopbackTLS(cfg.Listen.TLS.Loopback, c.own)
	if err != nil {
		return nil, inUse(err, "--https-listen", cfg.Listen.TLS.Loopback)
	}
	hosts := hostname.Loopback()
	if err := hosts.Add(broker.HostNames(c.names)...); err != nil {
		l.Close()
		return nil, err
	}
	deps.Hosts = hosts
	deps.ConsoleHTTPS = broker.ConsoleHTTPS{Port: l.Addr().(*net.TCPAddr).Port, Names: c.names}
	return l, nil
}

// listenTailnet opens the console's HTTPS listener on the tailnet: the operator's own
// certificate, or the node's Tailscale certificate. nil when the tailnet has HTTPS
// certificates turned off (ConsoleListener has said so), or when the listener cannot be
// opened: the robots' API does not go down with the console's HTTPS, which is logged.
func (c consoleTLS) listenTailnet(ctx context.Context, tn *broker.Tailnet, cfg *broker.Config, deps *broker.Deps, log *slog.Logger) (net.Listener, error) {
	if c.own != nil {
		hosts := tn.Hosts()
		if err := hosts.Add(broker.HostNames(c.names)...); err != nil {
			return nil, err
		}
		deps.Hosts = hosts
	}
	l, info, err := tn.ConsoleListener(ctx, cfg.Listen.TLS.Port, c.own, c.names, log)
	if err != nil {
		log.Error("the teleport console cannot be served over HTTPS; it stays on plain HTTP, where browsers give it no microphone", "err", err)
		return nil, nil
	}
	deps.ConsoleHTTPS = info
	return l, nil
}

// consoleURL is where an owner opens the console over HTTPS.
func consoleURL(info broker.ConsoleHTTPS) string {
	name := "localhost"
	for _, n := range broker.HostNames(info.Names) {
		name = n
		break
	}
	if info.Port == broker.HTTPSPort {
		return "https://" + name + "/"
	}
	return "https://" + net.JoinHostPort(name, strconv.Itoa(info.Port)) + "/"
}
