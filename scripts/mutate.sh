#!/usr/bin/env bash
# Mutation sampling: puts the realistic one-line bugs of scripts/mutants.tsv into the code one at a
# time, rebuilds incrementally, runs the tests that should catch each (`swift test --filter`, one
# process per filter) and says which were killed and by which tests, which survived, and which were
# killed only by a crash of the test process (a crash stops every test after it: it is not a catch).
# The file is always put back as it was, whatever happens (an error, Ctrl-C).
#
#   scripts/mutate.sh                 # every mutant of scripts/mutants.tsv
#   scripts/mutate.sh 3 7 12          # those lines (numbered from 1, comments not counted)
#   scripts/mutate.sh --list          # the mutants, numbered, and whether each still applies
#   MUTANTS=path scripts/mutate.sh    # another list
#
# Refuses to start on a tree with changes (a mutant must be the only difference). Builds and tests
# run under `nice`; the results go to .build/mutate/results.tsv and the tests' output to
# .build/mutate/<n>-<filter>.log. Exit status: 0 when every mutant not marked equivalent was killed
# by a failing test, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
list=${MUTANTS:-scripts/mutants.tsv}
out=.build/mutate
nice=(nice -n "${NICE:-10}")

listing=false
selected=()
for arg in "$@"; do
    case "$arg" in
        --list) listing=true ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *[!0-9]*|'') echo "mutate.sh: not a mutant number: $arg" >&2; exit 2 ;;
        *) selected+=("$arg") ;;
    esac
done

[ -f "$list" ] || { echo "mutate.sh: no list at $list" >&2; exit 2; }

# mutant N FIELD: a field of the Nth mutant, escapes undone (python: the texts hold quotes and backslashes).
py_field() {
    python3 - "$list" "$1" "$2" <<'PY'
import sys
path, n, field = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = [l.rstrip("\n").split("\t") for l in open(path, encoding="utf-8") if l.strip() and not l.startswith("#")]
if n < 1 or n > len(rows):
    sys.exit(f"no mutant {n}")
row = rows[n - 1]
if len(row) != 5:
    sys.exit(f"mutant {n}: {len(row)} fields, not 5")
def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(s[i + 1], "\\" + s[i + 1])); i += 2
        else:
            out.append(s[i]); i += 1
    return "".join(out)
value = row[field]
sys.stdout.write(unescape(value) if field in (1, 2) else value)
PY
}

count=$(grep -v '^#' "$list" | grep -c . || true)

# apply N: puts mutant N into its file; prints why not when it cannot ("does not apply", "ambiguous").
apply_mutant() {
    python3 - "$list" "$1" "$2" <<'PY'
import sys
path, n, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [l.rstrip("\n").split("\t") for l in open(path, encoding="utf-8") if l.strip() and not l.startswith("#")]
row = rows[n - 1]
def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(s[i + 1], "\\" + s[i + 1])); i += 2
        else:
            out.append(s[i]); i += 1
    return "".join(out)
file, original, mutated = row[0], unescape(row[1]), unescape(row[2])
try:
    text = open(file, encoding="utf-8").read()
except FileNotFoundError:
    print("does not apply: the file is gone"); sys.exit(3)
found = text.count(original)
if found == 0:
    print("does not apply: the original text is not in the file (changed since the list was made)"); sys.exit(3)
if found > 1:
    print(f"does not apply: the original text is in the file {found} times"); sys.exit(3)
if mode == "apply":
    open(file, "w", encoding="utf-8").write(text.replace(original, mutated, 1))
PY
}

if $listing; then
    for n in $(seq 1 "$count"); do
        status=$(apply_mutant "$n" check) && status="applies"
        printf '%3d  %-60s  %s\n     %s\n' "$n" "$(py_field "$n" 0)" "$status" "$(py_field "$n" 4)"
    done
    exit 0
fi

if [ -n "$(git status --porcelain)" ]; then
    echo "mutate.sh: the tree has changes; commit or stash them first (a mutant must be the only difference):" >&2
    git status --short >&2
    exit 2
fi

[ ${#selected[@]} -gt 0 ] || selected=($(seq 1 "$count"))
mkdir -p "$out"
results="$out/results.tsv"
printf 'n\tresult\tkilled by\tfile\tdescription\n' > "$results"

# The file being mutated and its copy: put back on any exit.
backup=""
target=""
restore() {
    if [ -n "$backup" ] && [ -f "$backup" ]; then
        cp "$backup" "$root/$target"  # a new time: the next build sees the change
        rm -f "$backup"
        backup=""
    fi
}
trap 'restore' EXIT
trap 'restore; echo "mutate.sh: interrupted; $target restored" >&2; exit 130' INT TERM HUP

survivors=0
for n in "${selected[@]}"; do
    [ "$n" -ge 1 ] && [ "$n" -le "$count" ] || { echo "mutate.sh: no mutant $n (1 to $count)" >&2; exit 2; }
    target=$(py_field "$n" 0)
    description=$(py_field "$n" 4)
    filters=$(py_field "$n" 3)
    equivalent=false
    case "$description" in equivalent:*) equivalent=true ;; esac
    echo "── mutant $n: $description ($target)"

    if ! why=$(apply_mutant "$n" check); then
        echo "   $why"
        printf '%s\t%s\t\t%s\t%s\n' "$n" "does not apply" "$target" "$description" >> "$results"
        continue
    fi
    backup=$(mktemp "$out/original.XXXXXX")
    cp "$target" "$backup"
    apply_mutant "$n" apply >/dev/null

    if ! "${nice[@]}" swift build --build-tests > "$out/$n-build.log" 2>&1; then
        echo "   does not compile (see $out/$n-build.log)"
        printf '%s\t%s\t\t%s\t%s\n' "$n" "does not compile" "$target" "$description" >> "$results"
        restore
        continue
    fi

    killers=()
    crashed=()
    unmatched=()
    IFS=',' read -r -a filter_list <<< "$filters"
    for filter in "${filter_list[@]}"; do
        log="$out/$n-$(printf '%s' "$filter" | tr -c 'A-Za-z0-9' '_').log"
        status=0
        "${nice[@]}" swift test --skip-build --filter "$filter" > "$log" 2>&1 || status=$?
        # XCTest: "Test Case 'Suite.testName' failed"; Swift Testing: "✘ Test name() failed" /
        # "✘ Test name() recorded an issue".
        failed=$( { grep -aoE "Test Case '[^']+' failed" "$log" | sed -E "s/Test Case '([^']+)' failed/\1/" ;
                    grep -aoE "Test [^ ]+\([^)]*\) (failed|recorded an issue)" "$log" | sed -E 's/^Test ([^ ]+\([^)]*\)).*/\1/' ; } \
                  | sort -u | tr '\n' ' ' || true)
        crash=false
        if grep -aqE "Fatal error|unexpected signal|Exited with signal|signal code|Illegal instruction|Segmentation fault" "$log" \
           || [ "$status" -ge 128 ]; then
            crash=true
            crashed+=("$filter")
        fi
        if ! grep -aqE "Executed [1-9][0-9]* test|Test run with [1-9][0-9]* test" "$log" && [ -z "$failed" ] && ! $crash; then
            unmatched+=("$filter")
        fi
        if [ -n "$failed" ]; then
            killers+=("${failed% }")
        elif [ "$status" -ne 0 ] && ! $crash; then
            killers+=("$filter (exit $status, see $log)")
        fi
    done
    restore

    killed_by=$(IFS='; '; echo "${killers[*]:-}")
    if [ ${#killers[@]} -gt 0 ]; then
        result="killed"
        [ ${#crashed[@]} -gt 0 ] && result="killed (and a crash in ${crashed[*]})"
        $equivalent && result="killed (marked equivalent: it is not)"
    elif [ ${#crashed[@]} -gt 0 ]; then
        result="killed only by a crash (${crashed[*]})"
        $equivalent || survivors=$((survivors + 1))
    elif $equivalent; then
        result="equivalent (survived)"
    else
        result="SURVIVED"
        survivors=$((survivors + 1))
    fi
    [ ${#unmatched[@]} -gt 0 ] && result="$result; no tests matched ${unmatched[*]}"
    echo "   $result${killed_by:+: $killed_by}"
    printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$result" "$killed_by" "$target" "$description" >> "$results"
done

echo
echo "Results ($results):"
column -t -s $'\t' "$results" 2>/dev/null || cat "$results"
if [ "$survivors" -gt 0 ]; then
    echo "mutate.sh: $survivors mutant(s) survived or were killed only by a crash" >&2
    exit 1
fi
