#!/usr/bin/env bash
# Set up the project's virtual environment from the lock file, then run a command in it.
#
#   bash dev.sh run     # set up, then run the pipeline on the bundled fixtures (and make inbox/)
#   bash dev.sh test    # set up (and Debian's chromium for the browser test), then the tests,
#                       # spread over the cores
#   bash dev.sh setup   # only set up
#   bash dev.sh <any clubratings arguments>
#
# Needs only python3 (3.11+). Installs uv from PyPI into .venv and the locked dependency set
# (requirements.lock) with it; reinstalls when the lock file or pyproject.toml changes.
set -euo pipefail
cd "$(dirname "$0")"

VENV=.venv
STAMP=$VENV/.installed

setup() {
    local want
    want=$(cat requirements.lock pyproject.toml | sha256sum | cut -d' ' -f1)
    if [[ -f $STAMP && $(cat "$STAMP") == "$want" ]]; then
        return
    fi
    echo "setting up $VENV (locked dependencies)..." >&2
    [[ -x $VENV/bin/python ]] || python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip --version >/dev/null 2>&1 || "$VENV/bin/python" -m ensurepip --upgrade >/dev/null
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "uv==0.13.8"
    # byte-compiled once here: a command then starts in about 2 s even where Python may not
    # write its caches (PYTHONDONTWRITEBYTECODE), instead of compiling every module each time
    "$VENV/bin/uv" pip install --quiet --compile-bytecode --python "$VENV/bin/python" \
        -r requirements.lock
    "$VENV/bin/uv" pip install --quiet --python "$VENV/bin/python" --no-deps -e .
    echo "$want" > "$STAMP"
}

# The browser test of the editions site drives Debian's Chromium (no browser download). Install
# it when missing and we may (root with apt-get); otherwise that one test is skipped, unless
# CLUBRATINGS_REQUIRE_BROWSER=1 (CI) makes a missing browser a failure.
browser() {
    [[ -x /usr/bin/chromium ]] && return
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        echo "installing Debian's chromium for the browser test..." >&2
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) \
            >/dev/null 2>&1 || echo "could not install chromium" >&2
    fi
}

# the project's own modules, compiled when they changed (a second or two after an edit,
# nothing otherwise)
compile_sources() {
    "$VENV/bin/python" -m compileall -q -j 0 benchmarks cli flows games parsers publishing \
        quality ratings scripts warehouse >/dev/null 2>&1 || true
}

[[ $# -gt 0 ]] || set -- run
cmd=$1
case "$cmd" in
    setup) setup ;;
    # the tests spread over the cores (pytest-xdist) a module at a time, so a fixture made once
    # per module is made once; heavy modules first (tests/conftest.py); -n 0 runs them all in
    # this process
    test) shift; setup; compile_sources; browser
          exec "$VENV/bin/python" -m pytest -n auto --dist loadscope --no-loadscope-reorder "$@" ;;
    *) setup; compile_sources; exec "$VENV/bin/clubratings" "$@" ;;
esac
