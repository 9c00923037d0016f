package home

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// MQTT controls Zigbee2MQTT/Tasmota-style devices: a JSON state is published to
// <prefix>/<entity>/set ({"state":"ON"}) and read from the retained <prefix>/<entity>; a
// reading straight from the device is asked for on <prefix>/<entity>/get.
//
// It never blocks start-up on the MQTT server: one supervising goroutine keeps a connection
// up, trying again every Retry (a second by default), and until it is connected writes fail
// at once (not sent) and cached readings are marked stale. A reading is stale while
// disconnected, until the server has re-sent it after a reconnect, or when it is older than
// MaxAge.
//
// Every connection is a fresh client that never reconnects or resends by itself: a lost
// connection, or one dropped because a write went unanswered, takes whatever it still held
// with it (no QoS 1 redelivery of a write whose outcome was already reported as unknown),
// and the supervisor dials a new one. Nothing of a dropped connection can stop the next one.
type MQTT struct {
	cfg  MQTTConfig
	log  *slog.Logger
	stop chan struct{} // closed by Close
	done chan struct{} // closed when the supervisor has returned
	shut sync.Once

	mu     sync.Mutex
	conn   *mqttConn // the connection in use; nil while there is none
	gen    int       // connection generation: bumped on every connection attempt
	states map[string]reading
	waits  map[string][]chan reading
}

// mqttConn is one connection (one paho client) of the supervisor.
type mqttConn struct {
	client mqtt.Client
	gen    int
	at     time.Time     // when it connected
	lost   chan struct{} // closed when the connection is lost or must be dropped
	once   sync.Once
}

// end marks the connection for dropping (the supervisor closes it and dials anew).
func (c *mqttConn) end() { c.once.Do(func() { close(c.lost) }) }

type reading struct {
	s   State
	at  time.Time
	gen int
}

// MQTTConfig configures the connection.
type MQTTConfig struct {
	Broker   string // tcp://host:1883
	Prefix   string // topic prefix; default zigbee2mqtt
	ClientID string
	Username string
	Password string
	Connect  time.Duration // how long DialMQTT waits for the first connection; default 5s
	// MaxAge is how old a cached reading may be before it is said as "last I heard";
	// 0: while connected, the retained state is current (the device pushes every change).
	MaxAge time.Duration
	// Retry is the pause between connection attempts; default 1s.
	Retry time.Duration
	// AskWait is how long a read of a device with no retained state waits for it to answer
	// when asked, before saying there is no such device; default 1s.
	AskWait time.Duration
	Log     *slog.Logger // default slog.Default()
}

// errStopped is returned by a connection attempt abandoned because the client is closing.
var errStopped = errors.New("mqtt: client closed")

// DialMQTT starts the connection and subscribes to every device's state topic. It waits up
// to c.Connect for the first connection, but a server that is down is not an error: the
// client keeps trying, and reports itself unavailable until it connects (Connected).
func DialMQTT(c MQTTConfig) (*MQTT, error) {
	if c.Broker == "" {
		return nil, errors.New("mqtt: no server address")
	}
	if c.Prefix == "" {
		c.Prefix = "zigbee2mqtt"
	}
	if c.ClientID == "" {
		c.ClientID = fmt.Sprintf("reachy-broker-%d", time.Now().UnixNano())
	}
	if c.Connect <= 0 {
		c.Connect = 5 * time.Second
	}
	if c.Retry <= 0 {
		c.Retry = time.Second
	}
	m := &MQTT{cfg: c, log: c.Log, stop: make(chan struct{}), done: make(chan struct{}),
		states: map[string]reading{}, waits: map[string][]chan reading{}}
	if m.log == nil {
		m.log = slog.Default()
	}
	up := make(chan struct{})
	go m.supervise(up)
	select {
	case <-up:
	case <-time.After(c.Connect):
	}
	return m, nil
}

// supervise keeps one connection up until Close: it dials, waits for the connection to be
// lost or dropped, closes it, and dials again. up is closed at the first connection.
func (m *MQTT) supervise(up chan struct{}) {
	defer close(m.done)
	first := true
	for {
		c, err := m.dial()
		if errors.Is(err, errStopped) {
			return
		}
		if err != nil {
			m.log.Debug("mqtt: connection attempt failed", "broker", m.cfg.Broker, "err", err)
			if !m.pause(m.cfg.Retry) {
				return
			}
			continue
		}
		if first {
			close(up)
			first = false
		} else {
			m.log.Info("mqtt: connected again", "broker", m.cfg.Broker)
		}
		since := time.Now()
		select {
		case <-c.lost:
		case <-m.stop:
			m.forget(c)
			c.client.Disconnect(250)
			return
		}
		m.forget(c)
		c.client.Disconnect(0) // nothing still queued in it is sent: it is gone with it
		m.log.Warn("mqtt: connection lost or dropped; reconnecting", "broker", m.cfg.Broker)
		if time.Since(since) < m.cfg.Retry && !m.pause(m.cfg.Retry) { // a server that drops at once is not hammered
			return
		}
	}
}

// pause waits d, or until Close; it reports whether to go on.
func (m *MQTT) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-m.stop:
		return false
	}
}

// dial makes one connection attempt with a fresh client, bounded by the connect timeout.
func (m *MQTT) dial() (*mqttConn, error) {
	m.mu.Lock()
	m.gen++
	c := &mqttConn{gen: m.gen, lost: make(chan struct{})}
	m.mu.Unlock()
	cfg := m.cfg
	opts := mqtt.NewClientOptions().AddBroker(cfg.Broker).SetClientID(cfg.ClientID).SetUsername(cfg.Username).
		SetPassword(cfg.Password).SetCleanSession(true).SetConnectTimeout(min(cfg.Connect, 5*time.Second)).
		SetAutoReconnect(false).SetConnectRetry(false).
		SetKeepAlive(5 * time.Second).SetPingTimeout(3 * time.Second).
		SetOnConnectHandler(func(cl mqtt.Client) {
			cl.Subscribe(cfg.Prefix+"/+", 1, func(_ mqtt.Client, msg mqtt.Message) { m.onState(c.gen, msg) })
		}).
		SetConnectionLostHandler(func(mqtt.Client, error) { c.end() })
	c.client = mqtt.NewClient(opts)
	tok := c.client.Connect()
	select {
	case <-tok.Done():
	case <-m.stop:
		c.client.Disconnect(0) // abandons the attempt once it ends
		return nil, errStopped
	}
	if err := tok.Error(); err != nil {
		return nil, fmt.Errorf("mqtt: connect to %s: %w", cfg.Broker, err)
	}
	c.at = time.Now()
	m.mu.Lock()
	m.conn = c
	m.mu.Unlock()
	return c, nil
}

// forget stops handing out c (it is being closed).
func (m *MQTT) forget(c *mqttConn) {
	m.mu.Lock()
	if m.conn == c {
		m.conn = nil
	}
	m.mu.Unlock()
}

// current is the connection in use, if it is open.
func (m *MQTT) current() *mqttConn {
	m.mu.Lock()
	c := m.conn
	m.mu.Unlock()
	if c == nil || !c.client.IsConnectionOpen() {
		return nil
	}
	return c
}

// awaitConnection returns the open connection, waiting for one until ctx ends (nil then).
func (m *MQTT) awaitConnection(ctx context.Context) *mqttConn {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if c := m.current(); c != nil {
			return c
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return nil
		case <-m.stop:
			return nil
		}
	}
}

// Connected reports whether the client is connected to the MQTT server now.
func (m *MQTT) Connected() bool { return m.current() != nil }

// AnsweringSince reports whether the client is connected on a connection made after t: the
// server answered a connect since (Recovering). A connection older than t is the one that
// failed, however open it still looks.
func (m *MQTT) AnsweringSince(_ context.Context, t time.Time) bool {
	c := m.current()
	return c != nil && c.at.After(t)
}

// Close disconnects and stops reconnecting. It returns once the supervisor has stopped.
func (m *MQTT) Close() {
	m.shut.Do(func() { close(m.stop) })
	<-m.done
}

type mqttState struct {
	State       string   `json:"state"`
	Temperature *float64 `json:"temperature,omitempty"`
}

// onState records a device's reported state, heard on the connection of generation gen.
func (m *MQTT) onState(gen int, msg mqtt.Message) {
	entity := strings.TrimPrefix(msg.Topic(), m.cfg.Prefix+"/")
	var p mqttState
	if json.Unmarshal(msg.Payload(), &p) != nil || p.State == "" {
		return
	}
	s := State{On: strings.EqualFold(p.State, "ON")}
	if p.Temperature != nil {
		s.Temperature = int(*p.Temperature + 0.5)
	}
	m.mu.Lock()
	r := reading{s: s, at: time.Now(), gen: gen}
	m.states[entity] = r
	waits := m.waits[entity]
	delete(m.waits, entity)
	m.mu.Unlock()
	for _, w := range waits {
		w <- r
	}
}

// GetEntity returns the device's state. From the cache, a reading is marked Stale when it is
// not known to be current; under Fresh it asks the device and waits for its answer, and
// never answers from the cache.
func (m *MQTT) GetEntity(ctx context.Context, kind, entity string) (State, error) {
	if since, ok := freshSince(ctx); ok {
		return m.getFresh(ctx, entity, since)
	}
	connected := m.Connected()
	m.mu.Lock()
	r, ok := m.states[entity]
	if ok {
		r.s.Stale = !connected || r.gen != m.gen || (m.cfg.MaxAge > 0 && time.Since(r.at) > m.cfg.MaxAge)
		m.mu.Unlock()
		return r.s, nil
	}
	if !connected {
		m.mu.Unlock()
		return State{}, &TransientError{errors.New("mqtt: not connected")}
	}
	ch := make(chan reading, 1)
	m.waits[entity] = append(m.waits[entity], ch)
	m.mu.Unlock()
	// Nothing retained for it: a device that exists answers when asked; one that does not
	// (a wrong entity name, a device never paired) is said at once, not after every retry.
	if c := m.current(); c != nil {
		c.client.Publish(m.cfg.Prefix+"/"+entity+"/get", 0, false, []byte(`{"state":""}`))
	}
	ask := time.NewTimer(m.askWait())
	defer ask.Stop()
	select {
	case r := <-ch:
		return r.s, nil
	case <-ask.C:
		return State{}, fmt.Errorf("mqtt: %s: %w", entity, ErrNoReport)
	case <-ctx.Done():
		return State{}, &TransientError{fmt.Errorf("mqtt: %s has not reported a state", entity)}
	}
}

// ErrNoReport is returned for a device that has never reported a state on the MQTT server and
// did not answer when asked: no such device there. It is not retried.
var ErrNoReport = errors.New("no state retained on the MQTT server and no answer when asked (is the entity name right?)")

func (m *MQTT) askWait() time.Duration {
	if m.cfg.AskWait > 0 {
		return m.cfg.AskWait
	}
	return time.Second
}

// getFresh waits for a state the device reported after since, asking it for one. A
// connection being re-established (after the one a write went out on was lost) is waited
// for within ctx: a read-back asks the device, whichever connection carries the question.
func (m *MQTT) getFresh(ctx context.Context, entity string, since time.Time) (State, error) {
	c := m.awaitConnection(ctx)
	if c == nil {
		return State{}, &TransientError{errors.New("mqtt: not connected")}
	}
	m.mu.Lock()
	if r, ok := m.states[entity]; ok && r.at.After(since) && r.gen == c.gen {
		m.mu.Unlock()
		return r.s, nil
	}
	ch := make(chan reading, 1)
	m.waits[entity] = append(m.waits[entity], ch)
	m.mu.Unlock()
	c.client.Publish(m.cfg.Prefix+"/"+entity+"/get", 0, false, []byte(`{"state":""}`))
	select {
	case r := <-ch:
		return r.s, nil
	case <-ctx.Done():
		return State{}, &TransientError{fmt.Errorf("mqtt: %s did not answer a read", entity)}
	}
}

// SetEntity publishes the wanted state (QoS 1) and waits for the server's acknowledgement.
func (m *MQTT) SetEntity(ctx context.Context, kind, entity string, s State) error {
	p := mqttState{State: "OFF"}
	if s.On {
		p.State = "ON"
	}
	if s.Temperature > 0 {
		t := float64(s.Temperature)
		p.Temperature = &t
	}
	b, _ := json.Marshal(p)
	return m.Publish(ctx, m.cfg.Prefix+"/"+entity+"/set", b)
}

// Publish sends a payload with QoS 1 (custom home.service intents over MQTT). Not connected:
// a TransientError (nothing was sent). Handed to the connection but not acknowledged (ctx
// ended, or the connection was lost first): an UnknownError — it may have landed, and it is
// never sent again.
func (m *MQTT) Publish(ctx context.Context, topic string, payload []byte) error {
	c := m.current()
	if c == nil {
		return &TransientError{errors.New("mqtt: not connected")}
	}
	tok := c.client.Publish(topic, 1, false, payload)
	select {
	case <-tok.Done():
		switch err := tok.Error(); {
		case err == nil:
			return nil
		case errors.Is(err, mqtt.ErrNotConnected):
			return &TransientError{fmt.Errorf("mqtt publish to %s: %w", topic, err)}
		default:
			return &UnknownError{fmt.Errorf("mqtt publish to %s: %w", topic, err)}
		}
	case <-ctx.Done():
		// Handed to the client, not acknowledged: it may still land. The connection is
		// dropped so nothing still queued in it is sent later; the supervisor dials anew.
		c.end()
		return &UnknownError{fmt.Errorf("mqtt publish to %s: %w", topic, ctx.Err())}
	}
}
