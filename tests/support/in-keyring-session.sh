#!/bin/sh
# Runs PROGRAM [ARGS...] inside a private D-Bus session with GNOME Keyring's Secret Service
# started and unlocked, for tests of the desktop keyring (QtKeychain). Without dbus-run-session or
# gnome-keyring-daemon it runs the program as it is (its keyring half then skips, saying why).
#   in-keyring-session.sh PROGRAM [ARGS...]
if command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
    TESSERA_TEST_PRIVATE_BUS=1 exec dbus-run-session -- sh -c '
        printf tessera | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        exec "$@"' sh "$@"
fi
exec "$@"
