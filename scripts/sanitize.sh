#!/usr/bin/env bash
# The tests under a sanitizer, in a build folder of its own (.build-tsan, .build-asan) so that .build
# stays as it is:
#
#   scripts/sanitize.sh thread [FILTER]    ThreadSanitizer, on the tests of what runs work on more
#                                          than one thread (or on FILTER, a --filter pattern)
#   scripts/sanitize.sh address [FILTER]   AddressSanitizer, on every test (or on FILTER)
#
# Any report fails the run (halt_on_error), and the report is the first thing in the log.
set -euo pipefail
cd "$(dirname "$0")/.."

# The effect runner, the HTTP clients (libcurl's thread, URLSession), the stores and the database,
# file locks and mapped files, the map cache, and the app's loop and its one-shot commands.
threaded='EffectRunner|HTTPClient|HostileHTTP|HostileServer|LiveHTTP|ConditionalGet|RetryingHTTP|NetworkLog|LikesStore|SettingsStore|MovieStores|UserDatabase|StartupPaging|MappedFiles|SafeFile|MapSnapshotCache|OtherConnectionChanges|AppLoop|BatchedWeatherApp|OtherProcessData|OneShotTests'

# Left out under ThreadSanitizer, both timing tests that run in the plain `swift test`: the gzip bomb,
# whose fixture server writes its 0.5 MB of deflate in Swift, which ThreadSanitizer slows past the
# client's time limit before the first byte; and the map cache's 8 threads × 2,000 turns of
# `withLock` in 30 s: to ThreadSanitizer each turn races with the others (found, then dropped by the
# suppression), which slows it past its limit (9,420 of 16,000 turns in a loaded run), and it checks
# nothing here since all its work is inside the lock.
slow='testAGzipBombIsCutAtTheDecodedCapWithBoundedMemory|testConcurrentAccessKeepsCountersAndLimitsConsistent'

# Under AddressSanitizer every test runs; those that measure a bound of time or memory assert it only
# without it (`Sanitizers.address` in TestSupport): the instrumented code is two to three times
# slower, and its shadow, red zones and quarantine of freed memory are in any peak measured. Children
# the tests start get the run's ASAN_OPTIONS (`ChildProcess`).

kind="${1:-}"
filter=()
export SWIFT_BACKTRACE=enable=no
case "$kind" in
    thread)
        filter=(--filter "${2:-$threaded}" --skip "$slow")
        export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan-suppressions.txt${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
        ;;
    address)
        [ -n "${2:-}" ] && filter=(--filter "$2")
        # Leaks are not checked: the runtime's and the tests' caches live until exit.
        export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
        ;;
    *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
scratch=".build-${kind:0:1}san"
exec swift test --sanitize="$kind" --scratch-path "$scratch" "${filter[@]}"
