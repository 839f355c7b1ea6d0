package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// checkArgs checks a call's raw arguments against the tool's input schema, a
// flat object of strings, integers and arrays of strings, and returns the
// first problem as one sentence ("" when there is none). Null values count
// as absent and are dropped from the arguments it returns. The SDK validates
// the same schema afterwards; this pass exists for messages that name the
// argument and what it must be, in the order the schema lists them.
func checkArgs(tool string, s *jsonschema.Schema, raw json.RawMessage) (json.RawMessage, string) {
	args := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		if err := json.Unmarshal(t, &args); err != nil {
			return raw, fmt.Sprintf("the arguments of %s must be a JSON object", tool)
		}
	}
	dropped := false
	for k, v := range args {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			delete(args, k)
			dropped = true
		}
	}
	var unknown []string
	for k := range args {
		if _, ok := s.Properties[k]; !ok {
			unknown = append(unknown, fmt.Sprintf("%q", k))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		if len(s.PropertyOrder) == 0 {
			return raw, fmt.Sprintf("%s takes no arguments, but was given %s", tool, strings.Join(unknown, ", "))
		}
		noun := "argument"
		if len(unknown) > 1 {
			noun = "arguments"
		}
		return raw, fmt.Sprintf("%s has no %s %s; its arguments are %s",
			tool, noun, strings.Join(unknown, ", "), strings.Join(s.PropertyOrder, ", "))
	}
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			return raw, fmt.Sprintf("%s needs the argument %q (%s)", tool, name, s.Properties[name].Description)
		}
	}
	for _, name := range s.PropertyOrder {
		if v, ok := args[name]; ok {
			if problem := checkValue(name, s.Properties[name], v); problem != "" {
				return raw, problem
			}
		}
	}
	if dropped {
		b, err := json.Marshal(args)
		if err != nil {
			return raw, fmt.Sprintf("the arguments of %s must be a JSON object", tool)
		}
		return b, ""
	}
	return raw, ""
}

// checkValue checks one argument against its property schema.
func checkValue(name string, p *jsonschema.Schema, v json.RawMessage) string {
	switch typeOf(p) {
	case "string":
		var s string
		if json.Unmarshal(v, &s) != nil {
			return fmt.Sprintf("%q must be a string", name)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(s)) {
			return fmt.Sprintf("%q must be one of %s, not %q", name, enumText(p.Enum), s)
		}
		if p.MinLength != nil && *p.MinLength > 0 && strings.TrimSpace(s) == "" {
			return fmt.Sprintf("%q is empty", name)
		}
	case "integer":
		var n float64
		if json.Unmarshal(v, &n) != nil || n != math.Trunc(n) {
			return fmt.Sprintf("%q must be a whole number%s", name, rangeText(p))
		}
		if (p.Minimum != nil && n < *p.Minimum) || (p.Maximum != nil && n > *p.Maximum) {
			return fmt.Sprintf("%q must be%s, not %g", name, rangeText(p), n)
		}
	case "array":
		strs := p.Items != nil && typeOf(p.Items) == "string"
		want := "an array"
		if strs {
			want = `an array of strings, e.g. ["checkout", "vat"]`
		}
		var items []json.RawMessage
		if json.Unmarshal(v, &items) != nil {
			return fmt.Sprintf("%q must be %s", name, want)
		}
		if strs {
			for _, it := range items {
				var s string
				if json.Unmarshal(it, &s) != nil {
					return fmt.Sprintf("%q must be %s", name, want)
				}
			}
		}
	}
	return ""
}

// typeOf is a property's JSON type, ignoring "null".
func typeOf(p *jsonschema.Schema) string {
	if p.Type != "" {
		return p.Type
	}
	for _, t := range p.Types {
		if t != "null" {
			return t
		}
	}
	return ""
}

func enumText(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, ", ")
}

// rangeText is " from 1 to 10", " of at least 1" or "".
func rangeText(p *jsonschema.Schema) string {
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		return fmt.Sprintf(" from %g to %g", *p.Minimum, *p.Maximum)
	case p.Minimum != nil:
		return fmt.Sprintf(" of at least %g", *p.Minimum)
	case p.Maximum != nil:
		return fmt.Sprintf(" of at most %g", *p.Maximum)
	}
	return ""
}
