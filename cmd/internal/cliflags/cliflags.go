// Package cliflags owns how the project's commands read their flags: flags may come before
// or after positional arguments, as the README writes them. It must never define a flag of
// its own or read the process's arguments itself.
package cliflags

import "flag"

// ParseInterspersed parses fs from args, where flags may come before or after positional
// arguments ("--" ends the flags); it returns the positional arguments in order.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
