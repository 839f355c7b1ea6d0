package verify

import (
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// NewHTTPClient is the client URL probes should use: no cookies, no proxy
// from the environment, no redirects followed (Probe stops at the first
// answer anyway), and no connections to link-local, multicast or unspecified
// addresses, so a claim cannot make the verifier read a cloud metadata
// endpoint (169.254.169.254) whatever its host name resolves to.
func NewHTTPClient() *http.Client {
	d := &net.Dialer{Timeout: DefaultURLTimeout, Control: refuseSpecial}
	return &http.Client{
		Transport: &http.Transport{
			DialContext:           d.DialContext,
			TLSHandshakeTimeout:   DefaultURLTimeout,
			ResponseHeaderTimeout: DefaultURLTimeout,
			MaxIdleConns:          8,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// refuseSpecial is a dialer Control that refuses addresses no memory should
// point at.
func refuseSpecial(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return fmt.Errorf("dial %s: not an IP address", address)
	}
	if unroutable(ip) {
		return fmt.Errorf("dial %s: refusing a link-local, multicast or unspecified address", address)
	}
	if ip.IsLoopback() || ip.IsPrivate() {
		// A public name can resolve to a local address: the validation of
		// the URL's host cannot see that, the dial can.
		return fmt.Errorf("dial %s: refusing a loopback or private address", address)
	}
	return nil
}

// unroutable reports whether ip is link-local unicast, multicast (link- and
// interface-local multicast included) or unspecified: addresses no memory
// should point at. Validate refuses them in a URL's host, and NewHTTPClient
// refuses to dial them whatever a host name resolves to.
func unroutable(ip net.IP) bool {
	return ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified()
}
