package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/reachy-broker/reachy-broker/broker/api"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

// runAnnounce: reachyctl announce --robot NAME|--all "text" — an owner's announcement,
// spoken with a chime on one robot or all of them (operator token with scope announce).
func runAnnounce(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("announce", stderr)
	c := addClientFlags(fs)
	robot := fs.String("robot", "", "the robot (device name) to speak on")
	all := fs.Bool("all", false, "speak on every connected robot")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	text := joinWords(pos)
	if text == "" || (*robot == "") == !*all {
		return usagef(`announce --robot NAME|--all "text"`)
	}
	body, _ := json.Marshal(api.AnnounceRequest{Robot: *robot, All: *all, Text: text})
	status, resp, _, err := c.do(httpClient(60*time.Second), http.MethodPost, "/v1/announcements", "application/json", body, "")
	if err != nil {
		return err
	}
	if status != 200 {
		return refusal(status, resp)
	}
	var res api.AnnounceResult
	if err := json.Unmarshal(resp, &res); err != nil {
		return fmt.Errorf("bad reply: %w", err)
	}
	if len(res.Delivered) > 0 {
		fmt.Fprintf(stdout, "announced on %s\n", strings.Join(res.Delivered, ", "))
	}
	if len(res.NotDelivered) > 0 {
		fmt.Fprintf(stdout, "not delivered (not connected or not answering): %s\n", strings.Join(res.NotDelivered, ", "))
	}
	if len(res.Delivered) == 0 {
		if len(res.NotDelivered) == 0 {
			fmt.Fprintln(stdout, "no robot is connected")
		}
		return exitError{1}
	}
	return nil
}
