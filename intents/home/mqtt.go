package home

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// MQTT controls Zigbee2MQTT/Tasmota-style devices: a JSON state is published to
// <prefix>/<entity>/set ({"state":"ON"}) and read from the retained <prefix>/<entity>; a
// reading straight from the device is asked for on <prefix>/<entity>/get.
//
// It never blocks start-up on the MQTT server: it keeps trying to connect every second or
// so, and until it is connected writes fail at once (not sent) and cached readings are
// marked stale. A reading is stale while disconnected, until the server has re-sent it after
// a reconnect, or when it is older than MaxAge.
type MQTT struct {
	client mqtt.Client
	prefix string
	maxAge time.Duration

	dropping atomic.Bool // a dropQueued is under way
	closed   atomic.Bool

	mu     sync.Mutex
	gen    int // connection generation: bumped on every (re)connect, before subscribing
	states map[string]reading
	waits  map[string][]chan reading
}

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
	// Retry is the pause between connection attempts, and the longest between reconnects;
	// default 1s.
	Retry time.Duration
}

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
	m := &MQTT{prefix: c.Prefix, maxAge: c.MaxAge, states: map[string]reading{}, waits: map[string][]chan reading{}}
	opts := mqtt.NewClientOptions().AddBroker(c.Broker).SetClientID(c.ClientID).SetUsername(c.Username).
		SetPassword(c.Password).SetCleanSession(true).SetConnectTimeout(min(c.Connect, 5*time.Second)).
		SetAutoReconnect(true).SetMaxReconnectInterval(c.Retry).SetConnectRetry(true).SetConnectRetryInterval(c.Retry).
		SetKeepAlive(5 * time.Second).SetPingTimeout(3 * time.Second).
		SetOnConnectHandler(func(cl mqtt.Client) {
			m.mu.Lock()
			m.gen++
			m.mu.Unlock()
			cl.Subscribe(c.Prefix+"/+", 1, m.onState)
		})
	m.client = mqtt.NewClient(opts)
	tok := m.client.Connect()
	tok.WaitTimeout(c.Connect) // with ConnectRetry the token completes only once connected
	return m, nil
}

// Connected reports whether the client is connected to the MQTT server now.
func (m *MQTT) Connected() bool { return m.client.IsConnectionOpen() }

// Close disconnects.
func (m *MQTT) Close() {
	m.closed.Store(true)
	m.client.Disconnect(250)
}

type mqttState struct {
	State       string   `json:"state"`
	Temperature *float64 `json:"temperature,omitempty"`
}

func (m *MQTT) onState(_ mqtt.Client, msg mqtt.Message) {
	entity := strings.TrimPrefix(msg.Topic(), m.prefix+"/")
	var p mqttState
	if json.Unmarshal(msg.Payload(), &p) != nil || p.State == "" {
		return
	}
	s := State{On: strings.EqualFold(p.State, "ON")}
	if p.Temperature != nil {
		s.Temperature = int(*p.Temperature + 0.5)
	}
	m.mu.Lock()
	r := reading{s: s, at: time.Now(), gen: m.gen}
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
		r.s.Stale = !connected || r.gen != m.gen || (m.maxAge > 0 && time.Since(r.at) > m.maxAge)
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
	select {
	case r := <-ch:
		return r.s, nil
	case <-ctx.Done():
		return State{}, &TransientError{fmt.Errorf("mqtt: %s has not reported a state", entity)}
	}
}

// getFresh waits for a state the device reported after since, asking it for one.
func (m *MQTT) getFresh(ctx context.Context, entity string, since time.Time) (State, error) {
	if !m.Connected() {
		return State{}, &TransientError{errors.New("mqtt: not connected")}
	}
	m.mu.Lock()
	if r, ok := m.states[entity]; ok && r.at.After(since) && r.gen == m.gen {
		m.mu.Unlock()
		return r.s, nil
	}
	ch := make(chan reading, 1)
	m.waits[entity] = append(m.waits[entity], ch)
	m.mu.Unlock()
	m.client.Publish(m.prefix+"/"+entity+"/get", 0, false, []byte(`{"state":""}`))
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
	return m.Publish(ctx, m.prefix+"/"+entity+"/set", b)
}

// Publish sends a payload with QoS 1 (custom home.service intents over MQTT). Not connected:
// a TransientError (nothing was sent). No acknowledgement before ctx ends: an UnknownError.
func (m *MQTT) Publish(ctx context.Context, topic string, payload []byte) error {
	if !m.Connected() {
		return &TransientError{errors.New("mqtt: not connected")}
	}
	tok := m.client.Publish(topic, 1, false, payload)
	select {
	case <-tok.Done():
		if err := tok.Error(); err != nil {
			return &TransientError{fmt.Errorf("mqtt publish: %w", err)}
		}
		return nil
	case <-ctx.Done():
		// Handed to the client, not acknowledged: it may still land. The caller never sends
		// it again; the connection is dropped so nothing still queued in it is sent later
		// (a clean session does not carry its queue into the next connection).
		m.dropQueued()
		return &UnknownError{fmt.Errorf("mqtt publish to %s: %w", topic, ctx.Err())}
	}
}

// dropQueued closes the connection (the client reconnects by itself), discarding publishes
// still waiting for a hung server.
func (m *MQTT) dropQueued() {
	if !m.dropping.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer m.dropping.Store(false)
		m.client.Disconnect(0)
		if !m.closed.Load() {
			m.client.Connect()
		}
	}()
}
