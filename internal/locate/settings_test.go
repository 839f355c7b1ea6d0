package locate

import (
	"encoding/json"
	"testing"
)

// FuzzSettingString holds the settings reader to encoding/json: whatever it
// reads as autoMemoryDirectory is what encoding/json decodes there.
func FuzzSettingString(f *testing.F) {
	for _, s := range []string{
		`{"autoMemoryDirectory":"~/notes"}`,
		`{"hooks":{"autoMemoryDirectory":"x"},"autoMemoryDirectory":"/a\u00e9"}`,
		`{"autoMemoryDirectory":1}`,
		`[]`, `{`, `{"autoMemoryDirectory":"a","autoMemoryDirectory":"b"}`,
		`{"autoMemoryDirectory":"a","autoMemoryDirectory":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := settingString(data, autoMemorySetting)
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			if got != "" {
				t.Fatalf("read %q from invalid JSON %q", got, data)
			}
			return
		}
		want, _ := v[autoMemorySetting].(string)
		if got != want {
			t.Fatalf("settingString(%q) = %q, encoding/json reads %q", data, got, want)
		}
	})
}
