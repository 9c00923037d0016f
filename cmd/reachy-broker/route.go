package main

// demoRouter is filled in by the intents package wiring.
func demoRouter() (func(string) string, error) { return nil, nil }
