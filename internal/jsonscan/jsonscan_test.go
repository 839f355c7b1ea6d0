package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`"plain"`, "plain", true},
		{`  "a\"b\\c\/d"`, `a"b\c/d`, true},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t", true},
		{`"caf\u00e9 \u20ac"`, "café €", true},
		{`"\ud83d\ude00"`, "😀", true},
		{`"\ud83d x"`, "\uFFFD x", true},
		{`"\ude00\ud83d"`, "\uFFFD\uFFFD", true},
		{"\"bad \xff byte\"", "bad \uFFFD byte", true},
		{"\"tab\there\"", "", false},
		{`"\x"`, "", false},
		{`"\u12"`, "", false},
		{`"open`, "", false},
		{`open"`, "", false},
	}
	for _, tt := range tests {
		got, err := New([]byte(tt.in)).String()
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("String(%s) = %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestObject(t *testing.T) {
	in := `{"skip": [1, -2.5e+3, {"x": null}, true, false], "Name": "mem", "n\u0061me": "again", "flag": true}`
	var names []string
	var flag bool
	s := New([]byte(in))
	err := s.Object(func(key []byte) error {
		switch string(key) {
		case "Name", "name":
			v, err := s.String()
			names = append(names, v)
			return err
		case "flag":
			var err error
			flag, err = s.Bool()
			return err
		}
		return s.Skip()
	})
	if err != nil || s.End() != nil {
		t.Fatalf("Object: %v, End: %v", err, s.End())
	}
	if len(names) != 2 || names[0] != "mem" || names[1] != "again" || !flag {
		t.Errorf("got names %q flag %v", names, flag)
	}
}

func TestSkipRejects(t *testing.T) {
	for _, in := range []string{``, `{`, `[`, `[1,]`, `{"a" 1}`, `{"a":1,}`, `01`, `1.`, `-`, `1e`, `tru`, `nul`, `[1 2]`, `{"a":1}}`, `"a" "b"`, "0\x00"} {
		s := New([]byte(in))
		if s.Skip() == nil && s.End() == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestDepth(t *testing.T) {
	deep := make([]byte, 0, 2*maxDepth+2)
	for range maxDepth + 1 {
		deep = append(deep, '[')
	}
	for range maxDepth + 1 {
		deep = append(deep, ']')
	}
	if New(deep).Skip() == nil {
		t.Error("nesting past encoding/json's limit accepted")
	}
	if err := New(deep[1 : len(deep)-1]).Skip(); err != nil {
		t.Errorf("nesting at the limit: %v", err)
	}
}

// FuzzScanner holds the scanner to encoding/json: it accepts the same
// texts, and decodes strings to the same values.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `[1,2.5e3,-0,true,false,null]`, `"\ud83d\ude00"`, "\"\xff\"", `{"a":{"b":[{}]}}`, `"\u0000"`, `01`, ` "x" `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := New(data)
		err := s.Skip()
		if err == nil {
			err = s.End()
		}
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("json.Valid %v, scanner error %v, for %q", valid, err, data)
		}
		var want string
		if json.Unmarshal(data, &want) == nil && New(data).Kind() == '"' {
			got, err := New(data).String()
			if err != nil || got != want {
				t.Fatalf("String(%q) = %q, %v; encoding/json %q", data, got, err, want)
			}
		}
	})
}
