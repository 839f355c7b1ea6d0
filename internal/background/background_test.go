package background

import "testing"

func TestOff(t *testing.T) {
	for _, c := range []struct {
		env, modelCall string
		want           bool
	}{
		{"", "", false},
		{"on", "", false},
		{"0", "", true},
		{"off", "", true},
		{"false", "", true},
		{"", "1", true}, // inside a model call, whatever Env says
		{"on", "1", true},
	} {
		t.Setenv(Env, c.env)
		t.Setenv(ModelCallEnv, c.modelCall)
		if got := Off(); got != c.want {
			t.Errorf("%s=%q %s=%q: Off() = %v, want %v", Env, c.env, ModelCallEnv, c.modelCall, got, c.want)
		}
	}
}
