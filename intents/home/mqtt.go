package home

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
)

// MQTT controls Zigbee2MQTT/Tasmota-style devices: a JSON state is published to
// <prefix>/<entity>/set ({"state":"ON"}) and read from the retained <prefix>/<entity>.
type MQTT struct {
	client mqtt.Client
	prefix string

	mu     sync.Mutex
	states map[string]State
	waits  map[string][]chan State
}

// MQTTConfig configures the connection.
type MQTTConfig struct {
	Broker   string // tcp://host:1883
	Prefix   string // topic prefix; default zigbee2mqtt
	ClientID string
	Username string
	Password string
	Connect  time.Duration // default 5s
}

// DialMQTT connects and subscribes to every device's state topic.
func DialMQTT(c MQTTConfig) (*MQTT, error) {
	if c.Prefix == "" {
		c.Prefix = "zigbee2mqtt"
	}
	if c.ClientID == "" {
		c.ClientID = fmt.Sprintf("reachy-broker-%d", time.Now().UnixNano())
	}
	if c.Connect <= 0 {
		c.Connect = 5 * time.Second
	}
	m := &MQTT{prefix: c.Prefix, states: map[string]State{}, waits: map[string][]chan State{}}
	opts := mqtt.NewClientOptions().AddBroker(c.Broker).SetClientID(c.ClientID).SetUsername(c.Username).
		SetPassword(c.Password).SetAutoReconnect(true).SetConnectTimeout(c.Connect).SetCleanSession(true).
		SetOnConnectHandler(func(cl mqtt.Client) {
			cl.Subscribe(c.Prefix+"/+", 1, m.onState)
		})
	m.client = mqtt.NewClient(opts)
	tok := m.client.Connect()
	if !tok.WaitTimeout(c.Connect) {
		return nil, fmt.Errorf("mqtt: connect to %s timed out", c.Broker)
	}
	if err := tok.Error(); err != nil {
		return nil, fmt.Errorf("mqtt: connect to %s: %w", c.Broker, err)
	}
	return m, nil
}

// Close disconnects.
func (m *MQTT) Close() { m.client.Disconnect(250) }

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
	m.states[entity] = s
	waits := m.waits[entity]
	delete(m.waits, entity)
	m.mu.Unlock()
	for _, w := range waits {
		w <- s
	}
}

// GetEntity returns the last state the device reported (retained), waiting briefly for one.
func (m *MQTT) GetEntity(ctx context.Context, kind, entity string) (State, error) {
	m.mu.Lock()
	if s, ok := m.states[entity]; ok {
		m.mu.Unlock()
		return s, nil
	}
	ch := make(chan State, 1)
	m.waits[entity] = append(m.waits[entity], ch)
	m.mu.Unlock()
	select {
	case s := <-ch:
		return s, nil
	case <-ctx.Done():
		return State{}, &TransientError{fmt.Errorf("mqtt: %s has not reported a state", entity)}
	}
}

// SetEntity publishes the wanted state (QoS 1) and waits for the broker's acknowledgement.
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

// Publish sends a payload with QoS 1 (custom home.service intents over MQTT).
func (m *MQTT) Publish(ctx context.Context, topic string, payload []byte) error {
	if !m.client.IsConnectionOpen() {
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
		return ctx.Err()
	}
}
