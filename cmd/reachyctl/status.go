package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reachy-broker/reachy-broker/broker"
	"github.com/reachy-broker/reachy-broker/cmd/internal/cliflags"
)

// runStatus: reachyctl status [--state-dir DIR] [--json] — the running broker's robots,
// teleport sessions, timers and models, asked over its control socket.
func runStatus(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("status", stderr)
	stateDir := fs.String("state-dir", devStateDir(), "the broker's state directory (default: the dev broker's at REACHY_BROKER, or 127.0.0.1:8092)")
	asJSON := fs.Bool("json", false, "print JSON")
	waitRobot := fs.String("wait-robot", "", "first wait (at most 30 s) until the robot of this name has linked")
	pos, err := cliflags.ParseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *stateDir == "" {
		return usagef("status [--state-dir DIR] [--json] [--wait-robot NAME]")
	}
	ctx, cancel := context.WithTimeout(context.Background(), statusWait+10*time.Second)
	defer cancel()
	c, err := dialControlWait(ctx, *stateDir)
	if err != nil {
		return err
	}
	defer c.Close()
	var st broker.Status
	for deadline := time.Now().Add(statusWait); ; time.Sleep(200 * time.Millisecond) {
		if st, err = c.Status(ctx); err != nil && !strings.Contains(err.Error(), "starting") {
			return fmt.Errorf("status of the broker on %s: %w", *stateDir, err)
		}
		if err == nil && (*waitRobot == "" || linked(st, *waitRobot)) {
			break
		}
		if time.Now().After(deadline) {
			if err != nil {
				return fmt.Errorf("status of the broker on %s: %w", *stateDir, err)
			}
			printStatus(stdout, st)
			return fmt.Errorf("robot %q has not linked within %s", *waitRobot, statusWait)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	printStatus(stdout, st)
	return nil
}

// statusWait bounds --wait-robot (and a broker that is still starting).
const statusWait = 30 * time.Second

func linked(st broker.Status, robot string) bool {
	for _, r := range st.Robots {
		if r.Device == robot && r.Linked {
			return true
		}
	}
	return false
}

// dialControlWait reaches the control socket of the broker running on dir, waiting (bounded
// by stateWait) for one that is starting. Status needs a running broker: the database alone
// has no robots, sessions or timers in flight.
func dialControlWait(ctx context.Context, dir string) (*broker.ControlClient, error) {
	deadline := time.Now().Add(stateWait)
	for {
		c, err := broker.DialControl(ctx, dir)
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if errors.Is(err, broker.ErrNoControl) {
				return nil, fmt.Errorf("no broker is running on %s (%v): start one, or pass the --state-dir it uses", dir, err)
			}
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func printStatus(w io.Writer, st broker.Status) {
	now := st.Time
	when := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		d := now.Sub(t).Round(time.Second)
		if d >= 0 {
			return fmt.Sprintf("%s (%s ago)", t.Local().Format("15:04:05"), d)
		}
		return fmt.Sprintf("%s (in %s)", t.Local().Format("15:04:05"), -d)
	}
	fmt.Fprintf(w, "broker on %s at %s\n", st.StateDir, now.Local().Format("15:04:05"))
	if st.SpeechToText.Configured {
		fmt.Fprintf(w, "speech-to-text: %s\n", orDash(st.SpeechToText.Model))
	} else if st.SpeechToText.DevClipText {
		fmt.Fprintln(w, "speech-to-text: not configured; dev mode hears the words a `reachyctl speak` clip carries (dev_clip_text); other audio turns answer busy")
	} else {
		fmt.Fprintln(w, "speech-to-text: not configured (audio turns answer busy; text turns work; `make model` downloads one)")
	}
	if st.Agent.Configured {
		fmt.Fprintf(w, "agent: %s\n", orDash(st.Agent.Model))
	} else {
		fmt.Fprintln(w, "agent: not configured (general questions are not answered)")
	}

	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "\nROBOTS")
	if len(st.Robots) == 0 {
		fmt.Fprintln(w, "  none configured, none linked since the broker started")
	} else {
		fmt.Fprintln(tw, "  NAME\tROOM\tCONFIGURED\tLINK\tSTATE\tLAST TURN\tQUIET UNTIL\tPRIVACY")
		for _, r := range st.Robots {
			link := "never linked"
			switch {
			case r.Linked:
				link = "up since " + when(r.LinkSince)
			case !r.LinkSince.IsZero():
				link = "down since " + when(r.LinkSince)
			}
			quiet := "-"
			if r.QuietUntil != nil {
				quiet = when(*r.QuietUntil)
			}
			privacy := "off"
			if r.Privacy {
				privacy = "on"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Device, orDash(r.Room), yesNo(r.Configured), link, orDash(r.State),
				lastTurn(r, when), quiet, privacy)
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\nLAST CALLS (since the broker started)")
	calls := 0
	for _, r := range st.Robots {
		if c := r.LastCall; c != nil {
			if calls == 0 {
				fmt.Fprintln(tw, "  ROBOT\tOWNER\tSTARTED\tOUTCOME")
			}
			calls++
			out := "in call"
			switch c.State {
			case "ended":
				out = "ended " + when(c.Ended) + ": " + orDash(c.Reason)
			case "failed":
				out = "failed " + when(c.Ended) + ": " + orDash(c.Reason) + " (" + c.Code + ")"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", r.Device, c.Owner, when(c.Started), out)
		}
	}
	if calls == 0 {
		fmt.Fprintln(w, "  none")
	}
	tw.Flush()

	fmt.Fprintln(w, "\nMISSED CALLS (waiting for the owner's next visit)")
	if len(st.MissedCalls) == 0 {
		fmt.Fprintln(w, "  none")
	} else {
		fmt.Fprintln(tw, "  OWNER\tROBOT\tROOM\tWANTED\tAT")
		for _, m := range st.MissedCalls {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", m.Owner, m.Robot, orDash(m.Room), m.Wanted, when(m.At))
		}
		tw.Flush()
	}

	if len(st.Backends) > 0 {
		fmt.Fprintln(w, "\nBACKENDS")
		fmt.Fprintln(tw, "  NAME\tHEALTH\tLAST CALL\tLAST ERROR")
		for _, b := range st.Backends {
			health := "up"
			if !b.Up {
				health = "DOWN"
			}
			lastErr := "-"
			if b.LastError != "" {
				lastErr = b.LastError + " at " + when(b.ErrorAt)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", b.Name, health, when(b.Checked), lastErr)
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\nTELEPORT SESSIONS")
	if len(st.Sessions) == 0 {
		fmt.Fprintln(w, "  none")
	} else {
		fmt.Fprintln(tw, "  ROBOT\tWHO\tSINCE\tLIVE")
		for _, s := range st.Sessions {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", s.Device, s.Owner, when(s.Since), yesNo(s.Live))
		}
		tw.Flush()
	}

	fmt.Fprintln(w, "\nTIMERS")
	if len(st.Timers) == 0 {
		fmt.Fprintln(w, "  none")
	} else {
		fmt.Fprintln(tw, "  ROOM\tLABEL\tDUE\tRINGS ON\tSET BY")
		for _, t := range st.Timers {
			on := strings.Join(t.RingsOn, ", ")
			switch {
			case on == "":
				on = "nobody: no robot configured or linked in its room"
			case !t.Linked:
				on += " (not linked now)"
			}
			due := when(t.Due)
			if t.Rings > 0 {
				due += fmt.Sprintf(", rang %d", t.Rings)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", orDash(t.Room), orDash(t.Label), due, on, t.Device)
		}
		tw.Flush()
	}
	if len(st.MissedTimers) > 0 {
		fmt.Fprintln(w, "\nMISSED TIMERS (let go without ringing)")
		fmt.Fprintln(tw, "  ROOM\tLABEL\tDUE\tMISSED\tWHY")
		for _, t := range st.MissedTimers {
			why := t.Reason
			switch t.Reason {
			case "no_robot":
				why = "no_robot: no robot was linked in its room"
			case "past_grace":
				why = "past_grace: due too long ago (the broker was down)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", orDash(t.Room), orDash(t.Label), when(t.Due), when(t.At), why)
		}
		tw.Flush()
	}
}

// lastTurn is a robot's last turn as the table shows it: when, which intent, and how it
// went ("refused: no_model" for one the broker could not hear).
func lastTurn(r broker.RobotStatus, when func(time.Time) string) string {
	if r.Turn == nil {
		return when(r.LastTurn)
	}
	t := *r.Turn
	out := when(t.At) + " " + orDash(t.Intent) + " " + t.Outcome
	if t.Refused != "" {
		out += ", refused: " + t.Refused
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
