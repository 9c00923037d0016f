package home

import (
	"context"
	"testing"
	"time"

	"github.com/reachy-broker/reachy-broker/intents/home/hometest"
)

func TestMQTTAgainstMosquitto(t *testing.T) {
	url := hometest.StartMosquitto(t)
	z := hometest.StartZigbee(t, url, "zigbee2mqtt", "kitchen_light", "bedroom_ac")
	m, err := DialMQTT(MQTTConfig{Broker: url})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s, err := m.GetEntity(ctx, "light", "kitchen_light"); err != nil || s.On {
		t.Fatalf("initial state: %+v %v", s, err)
	}
	if err := m.SetEntity(ctx, "light", "kitchen_light", State{On: true}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); z.State("kitchen_light") != "ON" && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if z.State("kitchen_light") != "ON" || z.Sets("kitchen_light") != 1 {
		t.Fatalf("device state %s after %d sets", z.State("kitchen_light"), z.Sets("kitchen_light"))
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if s, _ := m.GetEntity(ctx, "light", "kitchen_light"); s.On {
			break
		}
	}
	if s, _ := m.GetEntity(ctx, "light", "kitchen_light"); !s.On {
		t.Fatal("reported state never reached the broker")
	}
	short, cancel2 := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel2()
	if _, err := m.GetEntity(short, "light", "no_such_device"); err == nil {
		t.Fatal("a device that never reported answered")
	}
}

func TestMQTTDeadBrokerIsAnError(t *testing.T) {
	if _, err := DialMQTT(MQTTConfig{Broker: "tcp://127.0.0.1:1", Connect: 500 * time.Millisecond}); err == nil {
		t.Fatal("connected to nothing")
	}
}
