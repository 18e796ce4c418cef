// Package registry is the container registry a run pushes its fixture
// images to: an OCI distribution registry (github.com/distribution/
// distribution/v3) that keeps everything in memory, speaks plain HTTP and
// asks for no credentials. It lives for one run, beside a kind cluster
// on a sealed Docker network, as kind's local-registry recipe has it.
//
// Only the registry's HTTP handlers and the in-memory storage driver are
// linked: distribution's own command links every cloud storage driver,
// ACME, TLS and a debug server. The OpenTelemetry exporters come along
// anyway, through the base every storage driver is built on
// (distribution's tracing package), but nothing starts them.
package registry

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"

	"github.com/distribution/distribution/v3/configuration"
	"github.com/distribution/distribution/v3/registry/handlers"
	storagedriver "github.com/distribution/distribution/v3/registry/storage/driver"
	"github.com/distribution/distribution/v3/registry/storage/driver/factory"
	"github.com/distribution/distribution/v3/registry/storage/driver/inmemory"
)

// driverName is the storage driver New registers: distribution's
// in-memory driver with writes gathered in large chunks (chunked.go).
const driverName = "router-conformance-inmemory"

func init() {
	factory.Register(driverName, chunkedFactory{})
}

type chunkedFactory struct{}

func (chunkedFactory) Create(context.Context, map[string]any) (storagedriver.StorageDriver, error) {
	return chunked{inmemory.New()}, nil
}

// config is the registry's configuration, as distribution's example
// configuration has it but for the storage.
func config() (*configuration.Configuration, error) {
	// The secret signs the state of resumable uploads; one process holds
	// them all, so a random one serves, and saying so keeps distribution
	// from warning about it.
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("registry: the upload secret: %w", err)
	}
	cfg := &configuration.Configuration{}
	cfg.Storage = configuration.Storage{
		driverName: configuration.Parameters{},
		// Uploads live as long as the process: nothing to purge, and no
		// purger goroutine waking up within the hour.
		"maintenance": configuration.Parameters{"uploadpurging": map[any]any{"enabled": false}},
		"cache":       configuration.Parameters{"blobdescriptor": "inmemory"},
	}
	cfg.HTTP.Secret = string(secret)
	cfg.Catalog.MaxEntries = 1000 // distribution's default when it parses a file
	return cfg, nil
}

// New returns the registry's HTTP handler: the /v2/ API of the OCI
// distribution spec, in memory, no authentication. The handler stops
// its background work when ctx ends.
func New(ctx context.Context) (h http.Handler, err error) {
	cfg, err := config()
	if err != nil {
		return nil, err
	}
	// NewApp panics on any configuration it cannot use; ours is fixed,
	// so a panic is a defect of this package, turned into an error.
	defer func() {
		if p := recover(); p != nil {
			h, err = nil, fmt.Errorf("registry: distribution refused the configuration: %v", p)
		}
	}()
	return handlers.NewApp(ctx, cfg), nil
}
