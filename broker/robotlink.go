package broker

import (
	"net/http"

	"github.com/reachy-broker/reachy-broker/broker/link"
)

// Link is the registry of robot links: other parts of the broker (the console, timers)
// reach a robot by device name through it (Send, Status, Subscribe).
func (b *Broker) Link() *link.Registry { return b.link }

// handleLink hands an authenticated hub (scope link, token bound to its node) to the registry.
func (b *Broker) handleLink(w http.ResponseWriter, r *http.Request) {
	b.link.Serve(w, r, callerOf(r).Name)
}
