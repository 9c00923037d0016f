package main

// The home's integrations the config names, wired into the broker's handlers: the house hubs
// (Home Assistant, MQTT) behind the light and AC handlers, layered over the dev broker's
// simulated devices when there is one, and each person's calendar source (ICS or CalDAV).

import (
	"fmt"
	"log/slog"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/intents"
	"github.com/reachy-broker/reachy-broker/intents/calendar"
	"github.com/reachy-broker/reachy-broker/intents/home"
)

// calendarHandler builds each person's calendar source from the config.
func calendarHandler(cfg *broker.Config, table *intents.Table) (calendar.Handler, error) {
	loc := table.Location()
	var rules []calendar.Rule
	for _, r := range cfg.Calendars.Rules {
		rules = append(rules, calendar.Rule{Keyword: r.Keyword, Whereabouts: r.Whereabouts})
	}
	h := calendar.Handler{Sources: map[string]calendar.Source{}}
	for person, src := range cfg.Calendars.People {
		known := false
		for _, p := range table.Home.People {
			known = known || p.Name == person
		}
		if !known {
			return h, fmt.Errorf("calendars.people: %q is not a person of the home", person)
		}
		switch {
		case src.CalDAV != "":
			pw, err := broker.ReadSecret(src.PasswordFile, src.PasswordEnv)
			if err != nil {
				return h, err
			}
			h.Sources[person] = calendar.CalDAV{Endpoint: src.CalDAV, Calendar: src.Calendar, Username: src.Username, Password: pw,
				Loc: loc, Vocab: cfg.Whereabouts(), Rules: rules}
		case src.ICS != "" || src.ICSURLFile != "":
			where := src.ICS
			if src.ICSURLFile != "" {
				u, err := broker.ReadSecret(src.ICSURLFile, "")
				if err != nil {
					return h, err
				}
				where = u
			}
			h.Sources[person] = calendar.ICS{Location: where, Loc: loc, Vocab: cfg.Whereabouts(), Rules: rules}
		default:
			return h, fmt.Errorf("calendars.people.%s: needs ics, ics_url_file or caldav", person)
		}
	}
	return h, nil
}

// wireHouse connects the configured hubs and registers the house handlers. Without a house
// section (and outside the demo) house intents answer "I can't do that yet". sim, when set
// (a dev broker), serves every device the house section does not connect.
func wireHouse(cfg *broker.Config, handlers map[string]intents.Handler, sim home.Backend, log *slog.Logger) error {
	hc := cfg.House
	var ha *home.HomeAssistant
	var mq *home.MQTT
	if hc.HomeAssistant.URL != "" {
		tok, err := broker.ReadSecret(hc.HomeAssistant.TokenFile, hc.HomeAssistant.TokenEnv)
		if err != nil {
			return err
		}
		ha = &home.HomeAssistant{BaseURL: hc.HomeAssistant.URL, Token: tok}
	}
	if hc.MQTT.Broker != "" {
		pw, err := broker.ReadSecret(hc.MQTT.PasswordFile, hc.MQTT.PasswordEnv)
		if err != nil {
			return err
		}
		if mq, err = home.DialMQTT(home.MQTTConfig{Broker: hc.MQTT.Broker, Prefix: hc.MQTT.Prefix, Username: hc.MQTT.Username, Password: pw}); err != nil {
			return err
		}
		if !mq.Connected() {
			// Not fatal: the client keeps trying every second; until then MQTT devices
			// answer that they are not available.
			log.Warn("mqtt: the server is not answering yet; MQTT devices are unavailable until it does", "broker", hc.MQTT.Broker)
		}
	}
	if ha == nil && mq == nil {
		return nil
	}
	svc := home.Service{}
	var haRel, mqRel *home.Reliable
	if ha != nil {
		svc.HA, haRel = ha, &home.Reliable{Inner: ha}
	}
	if mq != nil {
		svc.MQTT, mqRel = mq, &home.Reliable{Inner: mq}
	}
	house := home.Mapped{}
	for _, d := range hc.Devices {
		target := home.Target{Entity: d.Entity, Backend: haRel}
		if d.Via == "mqtt" {
			target.Backend = mqRel
		}
		house[home.Device{Room: d.Room, Kind: d.Kind}] = target
	}
	var backend home.Backend = house
	if sim != nil {
		backend = home.Layered{Mapped: house, Sim: sim}
	}
	handlers["home.light"] = home.Handler{Backend: backend, Kind: "light"}
	handlers["home.ac"] = home.Handler{Backend: backend, Kind: "ac"}
	handlers["home.service"] = svc
	log.Info("house connected", "devices", len(house), "home_assistant", ha != nil, "mqtt", mq != nil)
	return nil
}
