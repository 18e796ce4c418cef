# Hermetic conformance suite for OpenShift-style ingress routers.
# `make help` lists the targets.

SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# openshift/* modules are served only as pseudo-versions that the checksum
# database does not know; go.sum pins them.
export GONOSUMDB := github.com/openshift
export GOFLAGS := -buildvcs=false

REPORTS ?= reports

.PHONY: help
help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: test
test: ## run every unit and integration test (sets up what they need)
	go test -count=1 ./...

.PHONY: docker
docker: ## make sure a Docker engine answers (installs docker.io as root on Debian)
	@clusters/host/ensure-docker.sh

.PHONY: images
images: docker ## build the component images (cached by input hash)
	@images/build-go-image.sh crlserver ./crlserver/cmd/crlserver >/dev/null
	@images/build-go-image.sh echo ./fixtures/echo/cmd/echo >/dev/null

.PHONY: vet
vet: ## go vet and gofmt
	go vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt: files above need formatting"; exit 1; }
