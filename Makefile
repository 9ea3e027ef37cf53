# kubelab — each target runs one script in scripts/; read those for the details.

.DEFAULT_GOAL := help
.PHONY: help setup run test bench web

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-6s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: ## install the toolchains and tools the build needs (idempotent, quiet when done)
	@scripts/setup.sh

run: ## build everything and serve on $KUBELAB_ADDR (default 127.0.0.1:8080)
	@scripts/run.sh

test: setup ## the full test suite (format, clippy, tests, wasm builds, determinism)
	@scripts/test.sh

bench: ## simulator benchmarks
	@scripts/bench.sh

web: setup ## build the browser bundle into target/web-bundle
	@scripts/build-web.sh
