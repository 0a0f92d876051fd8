# The two commands of the README: `make up` and `make test`. Each installs what it needs itself.
SHELL := /bin/bash
.DEFAULT_GOAL := help
export KAFKAJS_NO_PARTITIONER_WARNING := 1

# The project's Node (.node-version), fetched into .local/tools/ on first use (scripts/node-runtime.sh), first
# on PATH for every recipe: npm ci, the build, the tests and `make up` all run on it, whatever node the machine
# has. Evaluated once, when make reads this file.
NODE_BIN := $(shell scripts/node-runtime.sh)
ifeq ($(NODE_BIN),)
$(error scripts/node-runtime.sh gave no Node $(file < .node-version))
endif
export PATH := $(NODE_BIN):$(PATH)
# node-gyp builds a native module against this Node's headers (they come in the same package), not against a
# nodedir that an npmrc points at the machine's node.
export npm_config_nodedir := $(patsubst %/bin,%,$(NODE_BIN))
# Node's module compile cache: a service's start took ~0.68 CPU-s with it against ~0.99 without.
export NODE_COMPILE_CACHE := $(CURDIR)/.local/node-compile-cache

# Every workspace's package.json: the services are whatever services/*/ holds (services/manifest.json lists them).
WORKSPACE_MANIFESTS := package.json package-lock.json proto/package.json gateway/package.json web/package.json \
	$(wildcard services/*/package.json)

.PHONY: help up test test-run test-changed install build chromium bench lint down clean

help:
	@echo "make up     install, start Kafka + PostgreSQL + services + gateway + web app with demo data"
	@echo "make test   install, start what the tests need, run every suite, stop it again"
	@echo "make test-changed  only the suites and spec files that the working tree's changes touch"
	@echo "make bench  run the benchmarks in bench/"

## npm packages, reinstalled only when a manifest or the lockfile changes.
install: node_modules/.installed
node_modules/.installed: $(WORKSPACE_MANIFESTS)
	npm ci --no-audit --no-fund
	@touch $@

build: install
	node scripts/manifest.mjs build
	npm run build -w web

## Debian's Chromium (never a browser downloaded by a test tool): the browser (the announcements service's
## browser mode) and its headless shell, which the browser tests drive (a third of the browser's CPU).
chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; then \
		echo "installing Debian's chromium and chromium-headless-shell"; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell; fi; \
	fi

up:
	@started=$$(date +%s%3N); \
	$(MAKE) --no-print-directory build && UP_STARTED_AT=$$started node scripts/stack.mjs up

## The install and build count towards the run's CPU too: everything runs in one accounting cgroup
## (scripts/testing/cpu-account.mjs), whose figures close the summary.
test:
	@node scripts/testing/cpu-account.mjs $(MAKE) --no-print-directory test-run
test-run: build chromium
	node scripts/test.mjs

## The inner loop: the suites and spec files the working tree's changes touch (scripts/test-changed.mjs).
## A subset, and says so; `make test` stays the full run.
test-changed: build chromium
	node scripts/test.mjs --changed

bench: build
	node bench/run.mjs

## eslint, import boundaries (dependency-cruiser), test type checks: scripts/lint.mjs.
lint: install
	node scripts/lint.mjs

## Stops a detached stack and the infrastructure `make up` started.
down:
	node scripts/stack.mjs down
	node deploy/local/infra.mjs down

clean: down
	rm -rf .local node_modules */dist services/*/dist web/dist
