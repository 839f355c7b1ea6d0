package transcript

import (
	"errors"

	"github.com/mem-dev/mem/internal/jsonscan"
)

// sniffType returns the value of the first top-level "type" key of a JSON
// object without decoding the rest, so that lines of unwanted types (tool
// outputs, progress) cost a short scan instead of a full decode: Claude Code
// writes "type" before the bulky fields of user, progress and snapshot lines
// (after "message" in assistant lines). A "type" that is not a string reads
// as "". ok is false when the line is not valid JSON up to that key (or,
// without the key, to its end): what follows the key is not read, so a line
// it accepts may still fail a full decode.
func sniffType(line []byte) (typ string, ok bool) {
	s := jsonscan.New(line)
	err := s.Object(func(key []byte) error {
		if string(key) != "type" {
			return s.Skip()
		}
		if s.Kind() == '"' {
			v, err := s.String()
			if err != nil {
				return err
			}
			typ = v
		}
		return errFound
	})
	switch {
	case errors.Is(err, errFound):
		return typ, true
	case err != nil:
		return "", false
	}
	return "", s.End() == nil
}

// errFound stops a walk at the key it looks for.
var errFound = errors.New("found")
