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
# Python writes the byte code of what it imports (the environment's and the project's modules)
# the first time, even where the shell asks it not to: without it every command would compile
# each module it imports again (about 2 s a command), and compiling all of the environment
# up front costs a minute of CPU for modules no command imports
unset PYTHONDONTWRITEBYTECODE

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
    "$VENV/bin/uv" pip install --quiet --python "$VENV/bin/python" -r requirements.lock
    "$VENV/bin/uv" pip install --quiet --python "$VENV/bin/python" --no-deps -e .
    echo "$want" > "$STAMP"
}

# The browser tests drive Debian's Chromium (no browser download). When it is missing and we may
# install it (root with apt-get), `bash dev.sh test` installs it in the background while the
# environment is set up and the tests start: CLUBRATINGS_CHROMIUM_PENDING names a file that is
# there until the install has ended, and the browser tests wait for it (tests/conftest.py).
# Without Chromium those tests are skipped, unless CLUBRATINGS_REQUIRE_BROWSER=1 (CI) makes a
# missing browser a failure.
browser_in_background() {
    [[ -x /usr/bin/chromium ]] && return
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        local pending
        pending=$(mktemp -t clubratings-chromium.XXXXXX)
        export CLUBRATINGS_CHROMIUM_PENDING=$pending
        echo "installing Debian's chromium for the browser tests (in the background)..." >&2
        # the browser and the fonts the pages are measured in (the same fonts as with the
        # recommended packages), without what Chromium recommends for a desktop: printer
        # set-up, Mesa's drivers, a notification daemon. In a fresh Debian 12: 263 packages
        # and 32 s of CPU, against 414 and 55 s, taken from the tests that run meanwhile
        ( (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
               --no-install-recommends chromium fonts-liberation fonts-dejavu-core) \
            >/dev/null 2>&1 || echo "could not install chromium" >&2
          rm -f "$pending" ) &
    fi
}

[[ $# -gt 0 ]] || set -- run
cmd=$1
case "$cmd" in
    setup) setup ;;
    # the tests spread over the cores (pytest-xdist) a module at a time, so a fixture made once
    # per module is made once; heavy modules first (tests/conftest.py); -n 0 runs them all in
    # this process
    test) shift; browser_in_background; setup
          exec "$VENV/bin/python" -m pytest -n auto --dist loadscope --no-loadscope-reorder "$@" ;;
    *) setup; exec "$VENV/bin/clubratings" "$@" ;;
esac
