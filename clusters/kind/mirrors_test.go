package kind

import (
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestMirrorHostsFileNamesTheEndpoint(t *testing.T) {
	m := Mirror{Host: "127.0.0.1:5001", Endpoint: "http://172.18.0.2:5000"}
	if err := m.validate(); err != nil {
		t.Fatal(err)
	}
	var hosts struct {
		Server string `toml:"server"`
		Host   map[string]struct {
			Capabilities []string `toml:"capabilities"`
		} `toml:"host"`
	}
	if err := toml.Unmarshal([]byte(m.hostsTOML()), &hosts); err != nil {
		t.Fatalf("hosts.toml does not parse: %v\n%s", err, m.hostsTOML())
	}
	if hosts.Server != m.Endpoint {
		t.Errorf("server = %q, want %q", hosts.Server, m.Endpoint)
	}
	if got := hosts.Host[m.Endpoint].Capabilities; strings.Join(got, ",") != "pull,resolve" {
		t.Errorf("capabilities of %s = %v, want pull and resolve", m.Endpoint, got)
	}
}

func TestMirrorRefusesWhatContainerdCannotUse(t *testing.T) {
	for _, m := range []Mirror{
		{Host: "", Endpoint: "http://172.18.0.2:5000"},
		{Host: "127.0.0.1:5001/conformance", Endpoint: "http://172.18.0.2:5000"},
		{Host: "127.0.0.1:5001", Endpoint: "172.18.0.2:5000"},
		{Host: "127.0.0.1:5001", Endpoint: "ftp://172.18.0.2"},
	} {
		if err := m.validate(); err == nil {
			t.Errorf("%+v: accepted", m)
		}
	}
}

func TestRegistryConfigPatchParses(t *testing.T) {
	var cfg map[string]any
	if err := toml.Unmarshal([]byte(registryConfigPatch), &cfg); err != nil {
		t.Fatalf("containerd patch does not parse: %v", err)
	}
}
